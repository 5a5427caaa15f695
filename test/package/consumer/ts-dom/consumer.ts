// A strict TypeScript consumer of the MSW entry: msw's own declarations need the DOM lib, as msw documents.
import { setupServer } from 'msw/node';
import { createMswHandlers, type MswPetstore } from 'petstore-toolkit/msw';

export async function check(): Promise<number> {
  const petstore: MswPetstore = createMswHandlers({ baseUrl: 'https://api.example.test/v1', apiKeys: ['k'] });
  const server = setupServer(...petstore.handlers);
  server.listen();
  const response: Response = await fetch(`${petstore.url}/pets`, { headers: { authorization: 'Bearer k' } });
  server.close();
  petstore.reset();
  return response.status === 200 && petstore.pets.size === 50 ? 0 : 1;
}
