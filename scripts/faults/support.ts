import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import pg from 'pg';

/**
 * Plumbing shared by the fault scripts: a dedicated PostgreSQL database per run (created, then
 * dropped), a registered user, an upstream that accepts connections and never answers, and the
 * PASS/FAIL verdict. The service under test always runs as a real process
 * (test/support/processes.ts startServiceProcess).
 */
export const quick = process.argv.includes('--quick');
/** The password of every user the fault scripts register. */
export const FAULT_PASSWORD = 'fault-password-1';
export const adminUrl = process.env.FAULTS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `faults_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    const again = new pg.Client({ connectionString: adminUrl });
    await again.connect();
    await again.query(`drop database if exists ${name} with (force)`);
    await again.end();
  }
}

export async function registerUser(
  baseUrl: string,
  label: string,
  email = `${label}-${randomBytes(4).toString('hex')}@example.test`,
): Promise<{ token: string; email: string }> {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const registered = await post('/api/auth/register', { email, password: FAULT_PASSWORD, name: label });
  if (registered.status !== 201)
    throw new Error(`register answered ${registered.status}: ${await registered.text()}`);
  const login = await post('/api/auth/login', { email, password: FAULT_PASSWORD });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  const body = (await login.json()) as { access_token: string };
  return { token: body.access_token, email };
}

/** Logs in an existing account (e.g. the admin the service created from ADMIN_EMAILS). */
export async function loginUser(baseUrl: string, email: string, password = FAULT_PASSWORD): Promise<string> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  return ((await login.json()) as { access_token: string }).access_token;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 120_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

/** The PostgreSQL cluster version on this machine (the single directory under /etc/postgresql). */
export function clusterVersion(): string {
  const versions = readdirSync('/etc/postgresql');
  if (versions.length !== 1)
    throw new Error(`expected one cluster in /etc/postgresql, found ${versions.join(', ')}`);
  return versions[0]!;
}

/** Open file descriptors (sockets included) of a process, from /proc. */
export function openDescriptors(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** A TCP server that accepts connections and never answers: a hanging upstream. */
export async function hangingUpstream(): Promise<{
  url: string;
  open(): number;
  accepted(): number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('data', () => undefined); // read the request, never reply
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    open: () => sockets.size,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Prints the checks and the verdict; exits non-zero on FAIL. */
export function verdict(script: string, checks: Check[]): never {
  for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  const failed = checks.filter((c) => !c.ok);
  console.log(`${failed.length === 0 ? 'PASS' : 'FAIL'} ${script}`);
  process.exit(failed.length === 0 ? 0 : 1);
}
