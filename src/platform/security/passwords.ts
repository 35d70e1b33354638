import { hash, verify } from '@node-rs/argon2';

/** argon2id with the OWASP baseline parameters (m=19 MiB, t=2, p=1): ~6 ms per hash here. */
const options = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum, not importable) */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string): Promise<string> => hash(password, options);

/** A fixed hash to verify against when the account does not exist, so both failures take as long. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword('timing-equaliser-not-a-real-password');
  const target = passwordHash ?? (await dummyHash);
  try {
    const ok = await verify(target, password);
    return ok && passwordHash !== undefined;
  } catch {
    return false;
  }
}
