const { enforceCoverage } = require('petstore-toolkit/mock');

module.exports = async () => {
  await globalThis.petstore.close();
  // Names what is missing on stderr and sets the exit code to 1 (a throw would work too, with a stack trace).
  enforceCoverage(globalThis.petstore, { responses: ['listPets 200', 'getPet 404'] });
};
