const { enforceCoverage } = require('petstore-toolkit/mock');

module.exports = async () => {
  await globalThis.petstore.close();
  // The mock's coverage adds up every session's: one gate for the whole run.
  enforceCoverage(globalThis.petstore, { responses: ['listPets 200', 'createPet 201'] });
};
