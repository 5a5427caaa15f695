// A small app that knows nothing of the mock: it lists pets, adds one, and shows the service's errors.
import { startMocks } from './mocks.ts';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let created: number | undefined;

/** Calls the API; an Error body (`{ code, message, status }`) becomes the banner's text. */
async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const key = $<HTMLInputElement>('key').value;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const response = await fetch(`/v1${path}`, { ...init, headers });
  const body = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${body.code}: ${body.message}`);
  return body as T;
}

function show(pets: Pet[]): void {
  $('pets').replaceChildren(
    ...pets.map((pet) => {
      const row = document.createElement('tr');
      if (pet.id === created) row.className = 'created';
      for (const cell of [pet.id, pet.name, pet.categoryId, pet.status ?? '']) {
        const td = document.createElement('td');
        td.textContent = String(cell);
        row.append(td);
      }
      return row;
    }),
  );
}

async function load(): Promise<void> {
  try {
    show(await api<Pet[]>('/pets?limit=100'));
    $('error').textContent = '';
  } catch (error) {
    // The pets already shown stay: a failed reload says so above them.
    $('error').textContent = `Could not load pets: ${(error as Error).message}`;
  }
}

$('reload').addEventListener('click', load);
$<HTMLFormElement>('create').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const pet: Record<string, unknown> = { name: form.get('name'), categoryId: Number(form.get('categoryId')) };
  if (form.get('status')) pet.status = form.get('status');
  try {
    created = (await api<Pet>('/pets', { method: 'POST', body: JSON.stringify(pet) })).id;
    (event.target as HTMLFormElement).reset();
    await load();
  } catch (error) {
    $('error').textContent = `Could not add the pet: ${(error as Error).message}`;
  }
});

await startMocks();
$('mock-state').textContent = 'Answered in the browser by the petstore-toolkit mock, through MSW’s service worker.';
await load();
