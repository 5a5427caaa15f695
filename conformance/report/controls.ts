/**
 * Control bytes a server sent (an ESC that would clear a terminal or hide text, a carriage return that would
 * overwrite a line) are shown escaped, `\x1b`, in every human-facing report: line breaks and tabs stay.
 */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with each control character but `\n` and `\t` written as `\xNN`. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
