// Parties: the account's customers, attached to tracking requests and shipments.
import type { Clock } from '../domain/clock.js';
import { notFound, validationFailed } from '../domain/errors.js';
import { isUuid, newId } from '../lib/ids.js';
import { isUniqueViolation, type Db } from '../storage/db.js';
import * as repo from '../storage/repositories/parties.js';

export type { Party } from '../storage/repositories/parties.js';

const POINTER = '/data/attributes/company_name';

export class PartyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private duplicate(name: string) {
    return validationFailed([{ pointer: POINTER, detail: `'${name}' already exists in Account`, code: 'taken' }]);
  }

  private cleanName(companyName: string | null | undefined): string {
    const name = (companyName ?? '').trim();
    if (!name) throw validationFailed([{ pointer: POINTER, detail: "Company name can't be blank", code: 'blank' }]);
    if (name.length > 255)
      throw validationFailed([{ pointer: POINTER, detail: 'Company name is too long (maximum is 255 characters)', code: 'too_long' }]);
    return name;
  }

  async create(accountId: string, companyName: string | null | undefined): Promise<repo.Party> {
    const name = this.cleanName(companyName);
    const now = this.clock.now();
    try {
      return await this.db.transaction(async (tx) => {
        if (await repo.findPartyByName(tx, accountId, name)) throw this.duplicate(name);
        return repo.insertParty(tx, { id: newId(), accountId, companyName: name, createdAt: now, updatedAt: now });
      });
    } catch (err) {
      // Two concurrent creates of one name: the unique index decides, the loser gets the same 422.
      if (isUniqueViolation(err, repo.PARTY_NAME_CONSTRAINT)) throw this.duplicate(name);
      throw err;
    }
  }

  async get(accountId: string, id: string): Promise<repo.Party> {
    const party = isUuid(id) ? await repo.findParty(this.db, accountId, id) : undefined;
    if (!party) throw notFound('Party');
    return party;
  }

  /** The account's parties among `ids` (for includes). */
  byIds(accountId: string, ids: string[]): Promise<repo.Party[]> {
    return ids.length ? repo.findPartiesByIds(this.db, accountId, ids) : Promise.resolve([]);
  }

  list(accountId: string, page: { limit: number; offset: number }) {
    return repo.listParties(this.db, accountId, page);
  }

  async rename(accountId: string, id: string, companyName: string | null | undefined): Promise<repo.Party> {
    await this.get(accountId, id);
    const name = this.cleanName(companyName);
    try {
      return await this.db.transaction(async (tx) => {
        const other = await repo.findPartyByName(tx, accountId, name);
        if (other && other.id !== id) throw this.duplicate(name);
        const updated = await repo.updatePartyName(tx, accountId, id, name, this.clock.now());
        if (!updated) throw notFound('Party');
        return updated;
      });
    } catch (err) {
      if (isUniqueViolation(err, repo.PARTY_NAME_CONSTRAINT)) throw this.duplicate(name);
      throw err;
    }
  }
}
