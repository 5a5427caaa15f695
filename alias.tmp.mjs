export async function resolve(specifier, context, next) {
  if (specifier === 'msw' || specifier.startsWith('msw/')) return next(specifier.replace(/^msw/, 'msw-2'), context);
  return next(specifier, context);
}
