/**
 * The model-based commands of a generated sequence: list, create (valid or
 * invalid), get. The model is what this sequence created, so a lost or
 * changed animal is caught however many requests it takes, and fast-check
 * shrinks a failing sequence to the fewest, smallest commands that still fail.
 */

import fc from 'fast-check';
import { percentEncode } from '../client/bytes.ts';
import type { CaseRequest, Exchange } from '../types.ts';
import type { CreatedAnimal, Finding } from './checks.ts';
import { describeSent } from './checks.ts';
import { listFindings } from './list-checks.ts';
import { type ListQuery, listQueryArb, type PetRef, petRefArb } from './params.ts';
import { createFindings, getFindings, invalidFindings, readBackFindings } from './pet-checks.ts';
import { type BodyValue, toJsonText } from './schema.ts';
import {
  describeInvalid,
  type InvalidBody,
  invalidBodyArb,
  invalidBodyText,
  type NewPetValue,
  newPetArb,
  ruleOf,
} from './values.ts';

/** The operations generation sends requests to. */
export type GeneratedOperation = 'listPets' | 'createPet' | 'getPet';

/** What one run of a sequence sent and found; `stopped` once it failed the check being looked for. */
export interface Execution {
  exchanges: Exchange[];
  findings: Finding[];
  stopped: boolean;
  /** Set when a request met a 429/503 past the wait budget: the sequence judges nothing and is counted apart. */
  throttled?: string;
  /** Set when the run's proxy answered a request itself: the sequence judges nothing and is counted apart. */
  proxied?: string;
  /** Records findings, and stops the sequence when one of them is the failure being looked for. */
  judge(findings: readonly Finding[]): void;
}

/** What the commands share: settings, the budget and the way requests go out. */
export interface CommandContext {
  strict: boolean;
  /** The run's name prefix, when generated names must carry it (shared environments). */
  prefix: string | undefined;
  /** Ids of animals listed before generation began. */
  existing: readonly number[];
  /** Every animal generated requests created in this run, in order (a complete list must hold each). */
  runCreated: CreatedAnimal[];
  /** Ids the fixed cases' creates got. */
  fixedIds: ReadonlySet<number>;
  /** Whether `op` may send a request now (its budget while searching; always while shrinking). */
  allow(op: GeneratedOperation): boolean;
  /** Notes a generated value left out, with why (counted while searching only). */
  skipValue(reason: string): void;
  /** Notes what a server created from an invalid body (by its 2xx answer), so what it breaks later is traced to it. */
  letIn(ex: Exchange): void;
  /** Sends a request; `primary` requests spend the operation's budget. */
  send(exec: Execution, op: GeneratedOperation, request: CaseRequest, primary: boolean): Promise<Exchange>;
}

/** The model: what this sequence created, and its execution. */
interface SequenceModel {
  created: CreatedAnimal[];
  exec: Execution;
}

type Command = fc.AsyncCommand<SequenceModel, Execution>;

/** One generated sequence of commands, as {@link sequenceArb} makes them. */
export type Sequence = Iterable<Command>;

class ListCommand implements Command {
  constructor(
    private readonly ctx: CommandContext,
    private readonly query: ListQuery,
  ) {}
  path(): string {
    const q = Object.entries(this.query).map(([k, v]) => `${k}=${percentEncode(v)}`);
    return q.length === 0 ? '/pets' : `/pets?${q.join('&')}`;
  }
  check(m: Readonly<SequenceModel>): boolean {
    return !m.exec.stopped && this.ctx.allow('listPets');
  }
  async run(_m: SequenceModel, exec: Execution): Promise<void> {
    const ex = await this.ctx.send(exec, 'listPets', { method: 'GET', path: this.path() }, true);
    exec.judge(listFindings(ex, this.query, this.ctx.runCreated, this.ctx.strict));
  }
  toString(): string {
    return `GET ${this.path()}`;
  }
}

const EMPTY_NAME = 'the empty name cannot carry the run prefix';

class CreateCommand implements Command {
  constructor(
    private readonly ctx: CommandContext,
    private readonly pet: NewPetValue,
  ) {}
  sent(): NewPetValue {
    return this.ctx.prefix === undefined ? this.pet : { ...this.pet, name: this.ctx.prefix + this.pet.name };
  }
  check(m: Readonly<SequenceModel>): boolean {
    if (m.exec.stopped || !this.ctx.allow('createPet')) return false;
    if (this.ctx.prefix !== undefined && this.pet.name === '') {
      this.ctx.skipValue(EMPTY_NAME);
      return false;
    }
    return true;
  }
  async run(m: SequenceModel, exec: Execution): Promise<void> {
    const sent = this.sent();
    const ex = await this.ctx.send(exec, 'createPet', { method: 'POST', path: '/pets', body: toJsonText(sent) }, true);
    const { findings, pet } = createFindings(ex, sent, (id) => this.takenBy(id), this.ctx.strict);
    exec.judge(findings);
    if (!pet) return;
    this.ctx.runCreated.push(pet);
    if (!exec.stopped && pet.id !== undefined) {
      const get = await this.ctx.send(exec, 'getPet', { method: 'GET', path: `/pets/${pet.id}` }, false);
      exec.judge(readBackFindings(get, pet, 'createPet', 'fetchable', this.ctx.strict));
    }
    m.created.push(pet);
  }
  takenBy(id: number): string | undefined {
    if (this.ctx.fixedIds.has(id)) return 'an animal a fixed case created';
    const earlier = this.ctx.runCreated.find((a) => a.id === id);
    return earlier && `an animal created as ${describeSent(earlier.sent)}`;
  }
  toString(): string {
    return `POST /pets ${toJsonText(this.sent())}`;
  }
}

/** The body with the prefix in front of its name (in the object, or the first object of an array), or undefined when it has no string name. */
function prefixed(value: BodyValue, prefix: string): BodyValue | undefined {
  if (Array.isArray(value)) {
    const first = value[0] === undefined ? undefined : prefixed(value[0], prefix);
    return first === undefined ? undefined : [first, ...value.slice(1)];
  }
  if (value === null || typeof value !== 'object' || typeof value.name !== 'string') return undefined;
  return { ...value, name: prefix + value.name };
}

class InvalidCreateCommand implements Command {
  constructor(
    private readonly ctx: CommandContext,
    private readonly body: InvalidBody,
  ) {}
  text(): string | undefined {
    if (this.ctx.prefix === undefined) return invalidBodyText(this.body);
    const value = prefixed(this.body.value, this.ctx.prefix);
    return value === undefined ? undefined : invalidBodyText({ ...this.body, value });
  }
  check(m: Readonly<SequenceModel>): boolean {
    if (m.exec.stopped || !this.ctx.allow('createPet')) return false;
    if (this.text() === undefined) {
      this.ctx.skipValue('an invalid body without a string name cannot carry the run prefix');
      return false;
    }
    return true;
  }
  async run(_m: SequenceModel, exec: Execution): Promise<void> {
    const ex = await this.ctx.send(exec, 'createPet', { method: 'POST', path: '/pets', body: this.text()! }, true);
    this.ctx.letIn(ex);
    exec.judge(invalidFindings(ex, describeInvalid(this.body), ruleOf(this.body)));
  }
  toString(): string {
    return `POST /pets ${this.text()} (${describeInvalid(this.body)})`;
  }
}

class GetCommand implements Command {
  constructor(
    private readonly ctx: CommandContext,
    private readonly ref: PetRef,
  ) {}
  check(m: Readonly<SequenceModel>): boolean {
    if (m.exec.stopped || !this.ctx.allow('getPet')) return false;
    if (this.ref.kind === 'created') return m.created.some((a) => a.id !== undefined);
    if (this.ref.kind === 'existing' || this.ref.kind === 'aliased') return this.ctx.existing.length > 0;
    return true;
  }
  async run(m: SequenceModel, exec: Execution): Promise<void> {
    const { ref, ctx } = this;
    if (ref.kind === 'created') {
      const known = m.created.filter((a) => a.id !== undefined);
      const animal = known[ref.index % known.length]!;
      const ex = await ctx.send(exec, 'getPet', { method: 'GET', path: `/pets/${animal.id}` }, true);
      exec.judge(readBackFindings(ex, animal, 'getPet', 'lost', ctx.strict));
      return;
    }
    const id = ref.kind === 'raw' ? ref.id : this.listedId(ref.index, ref.kind === 'aliased');
    const ex = await ctx.send(exec, 'getPet', { method: 'GET', path: `/pets/${percentEncode(id)}` }, true);
    exec.judge(getFindings(ex, id, ctx.strict));
  }
  /** A listed id; aliased, the same id plus 2^32, which a server keeping 32 bits reads as the listed one. */
  listedId(index: number, aliased: boolean): string {
    const id = BigInt(this.ctx.existing[index % this.ctx.existing.length]!);
    return String(aliased ? id + 2n ** 32n : id);
  }
  toString(): string {
    const { ref } = this;
    return ref.kind === 'raw' ? `GET /pets/${percentEncode(ref.id)}` : `GET /pets/{${ref.kind} #${ref.index}}`;
  }
}

/** Options of {@link sequenceArb}. */
interface SequenceOptions {
  ctx: CommandContext;
  /** No create at all (`--read-only`, `--env production`). */
  readOnly: boolean;
  /** Longest sequence. */
  maxCommands: number;
}

/** Sequences of interleaved commands, each drawn from the spec's schemas. */
export function sequenceArb(options: SequenceOptions): fc.Arbitrary<Sequence> {
  const { ctx } = options;
  const arbs: fc.Arbitrary<Command>[] = [
    listQueryArb().map((q) => new ListCommand(ctx, q)),
    petRefArb().map((r) => new GetCommand(ctx, r)),
  ];
  if (!options.readOnly) {
    arbs.push(newPetArb().map((p) => new CreateCommand(ctx, p)));
    arbs.push(invalidBodyArb().map((b) => new InvalidCreateCommand(ctx, b)));
  }
  return fc.commands(arbs, { maxCommands: options.maxCommands });
}
