import { describe, expect, it } from 'vitest';
import { petJson } from '../../core/store.ts';
import { hidePassword, parseStoreUrl, passwordsOf, rowJson, storeFailed } from './common.ts';

describe('store URLs', () => {
  it('reads memory, sqlite:FILE and postgres:// URLs; refuses anything else, naming it with the password hidden', () => {
    expect(parseStoreUrl('memory')).toEqual({ kind: 'memory' });
    expect(parseStoreUrl('sqlite:./pets.db')).toEqual({ kind: 'sqlite', file: './pets.db' });
    expect(parseStoreUrl('sqlite:///var/pets.db')).toEqual({ kind: 'sqlite', file: '/var/pets.db' });
    expect(parseStoreUrl('postgresql://u:p@h/db')).toEqual({ kind: 'postgres', url: 'postgresql://u:p@h/db' });
    expect(() => parseStoreUrl('sqlite:')).toThrow(/sqlite: needs a file/);
    expect(() => parseStoreUrl('mysql://root:hunter2@h/db')).toThrow(/got "mysql:\/\/root:\*\*\*@h\/db"/);
    expect(() => parseStoreUrl('mysql://root:hunter2@h/db')).not.toThrow(/hunter2/);
  });

  it('hides the password of the user info and of a password= parameter, and only that', () => {
    expect(hidePassword('postgres://app:s3cr%40t@db:5432/pets')).toBe('postgres://app:***@db:5432/pets');
    expect(hidePassword('postgres://app@db/pets?password=x1&sslmode=require')).toBe(
      'postgres://app@db/pets?password=***&sslmode=require',
    );
    expect(hidePassword('postgres://db/pets')).toBe('postgres://db/pets');
    expect(passwordsOf('postgres://app:s3cr%40t@db/pets')).toEqual(['s3cr%40t', 's3cr@t']);
  });

  it('never quotes the password in a failure, whatever the driver said', () => {
    const url = 'postgres://app:s3cr%40t@db/pets';
    const error = storeFailed(url, 'connect failed for postgres://app:s3cr@t@db (s3cr%40t)');
    expect(error.code).toBe('PETSTORE_MOCK_STORE_FAILED');
    expect(error.message).toMatch(/^cannot use the store postgres:\/\/app:\*\*\*@db\/pets: /);
    expect(error.message).not.toMatch(/s3cr/);
  });
});

describe('rows', () => {
  it('writes the JSON the memory store writes, from a row whose name is JSON text', () => {
    const name = 'a\u0000"\ud800\u2028';
    const row = { id: '12', name: JSON.stringify(name), category_id: '-3', status: 'sold' };
    expect(rowJson(row)).toBe(petJson(12, { name, categoryId: -3, status: 'sold' }));
    expect(rowJson({ ...row, status: null })).toBe(petJson(12, { name, categoryId: -3 }));
  });
});
