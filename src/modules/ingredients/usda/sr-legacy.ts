import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Readers for the USDA SR Legacy (SR28) ASCII release: latin-1 text, `^`-separated fields, text
 * fields wrapped in `~`, an empty field meaning "missing" (not zero). See sr28_doc.pdf, Table 16.
 */

export interface AbbrevFood {
  ndb: string;
  shortDesc: string;
  kcal: number | null;
  protein: number | null;
  fat: number | null;
  carbs: number | null;
  fiber: number | null;
}

export interface FoodDescription {
  ndb: string;
  groupCode: string;
  longDesc: string;
  shortDesc: string;
  commonName: string;
  manufacturer: string;
}

export interface PortionWeight {
  ndb: string;
  amount: number;
  measure: string;
  grams: number;
}

/** Fields of one record: `~01001~^~BUTTER~^15.87^^` → ['01001', 'BUTTER', '15.87', '', '']. */
export function splitRecord(line: string): string[] {
  return line
    .split('^')
    .map((field) =>
      field.startsWith('~') && field.endsWith('~') && field.length >= 2 ? field.slice(1, -1) : field,
    );
}

/** The non-blank records of a file (ABBREV.txt has blank lines between records). */
export function readRecords(file: string): string[][] {
  return readFileSync(file, 'latin1')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map(splitRecord);
}

const num = (field: string | undefined): number | null => {
  if (field === undefined || field.trim() === '') return null;
  const n = Number(field);
  return Number.isFinite(n) ? n : null;
};

/** ABBREV.txt columns used here: 0 NDB_No, 1 Shrt_Desc, 3 Energ_Kcal, 4 Protein, 5 Lipid_Tot, 7 Carbohydrt, 8 Fiber_TD. */
export function parseAbbrev(records: string[][]): Map<string, AbbrevFood> {
  const out = new Map<string, AbbrevFood>();
  for (const r of records) {
    const ndb = r[0];
    if (!ndb) continue;
    out.set(ndb, {
      ndb,
      shortDesc: r[1] ?? '',
      kcal: num(r[3]),
      protein: num(r[4]),
      fat: num(r[5]),
      carbs: num(r[7]),
      fiber: num(r[8]),
    });
  }
  return out;
}

/** FOOD_DES.txt: 0 NDB_No, 1 FdGrp_Cd, 2 Long_Desc, 3 Shrt_Desc, 4 ComName, 5 ManufacName. */
export function parseFoodDescriptions(records: string[][]): Map<string, FoodDescription> {
  const out = new Map<string, FoodDescription>();
  for (const r of records) {
    const ndb = r[0];
    if (!ndb) continue;
    out.set(ndb, {
      ndb,
      groupCode: r[1] ?? '',
      longDesc: r[2] ?? '',
      shortDesc: r[3] ?? '',
      commonName: r[4] ?? '',
      manufacturer: r[5] ?? '',
    });
  }
  return out;
}

/** FD_GROUP.txt: 0 FdGrp_Cd, 1 FdGrp_Desc. */
export function parseFoodGroups(records: string[][]): Map<string, string> {
  return new Map(records.filter((r) => r[0]).map((r) => [r[0]!, r[1] ?? '']));
}

/** WEIGHT.txt: 0 NDB_No, 1 Seq, 2 Amount, 3 Msre_Desc, 4 Gm_Wgt. Grouped by food. */
export function parseWeights(records: string[][]): Map<string, PortionWeight[]> {
  const out = new Map<string, PortionWeight[]>();
  for (const r of records) {
    const ndb = r[0];
    const amount = num(r[2]);
    const grams = num(r[4]);
    if (!ndb || !amount || !grams || amount <= 0 || grams <= 0) continue;
    const list = out.get(ndb) ?? [];
    list.push({ ndb, amount, measure: (r[3] ?? '').trim(), grams });
    out.set(ndb, list);
  }
  return out;
}

export interface SrLegacyRelease {
  foods: Map<string, AbbrevFood>;
  descriptions: Map<string, FoodDescription>;
  groups: Map<string, string>;
  /** Empty when WEIGHT.txt is absent. */
  weights: Map<string, PortionWeight[]>;
}

/** Files are looked up case-insensitively (downloads come as ABBREV.txt or abbrev.txt). */
function findFile(dir: string, name: string): string | undefined {
  const exact = path.join(dir, name);
  if (existsSync(exact)) return exact;
  const lower = path.join(dir, name.toLowerCase());
  return existsSync(lower) ? lower : undefined;
}

export const REQUIRED_FILES = ['ABBREV.txt', 'FOOD_DES.txt', 'FD_GROUP.txt'] as const;

/** Reads a release folder; throws naming the missing file when a required one is absent. */
export function readSrLegacy(dir: string): SrLegacyRelease {
  const required = REQUIRED_FILES.map((name) => {
    const file = findFile(dir, name);
    if (!file) throw new Error(`${name} not found in ${dir}`);
    return file;
  });
  const [abbrev, foodDes, fdGroup] = required as [string, string, string];
  const weightFile = findFile(dir, 'WEIGHT.txt');
  return {
    foods: parseAbbrev(readRecords(abbrev)),
    descriptions: parseFoodDescriptions(readRecords(foodDes)),
    groups: parseFoodGroups(readRecords(fdGroup)),
    weights: weightFile ? parseWeights(readRecords(weightFile)) : new Map(),
  };
}
