import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../api/config.js';

// docker-compose.yml and the Dockerfile cannot be run here (no Docker): this reads them and checks what would
// otherwise only fail on a deployment host.
const root = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

type Service = {
  image?: string;
  build?: unknown;
  environment?: Record<string, unknown> | string[];
  env_file?: string | (string | { path: string })[];
  ports?: unknown[];
  container_name?: string;
  depends_on?: string[] | Record<string, unknown>;
  volumes?: (string | { type?: string; source?: string })[];
};

/** Registries that serve images to anyone, and on Docker Hub the namespaces known to be maintained. */
const REGISTRIES = ['docker.io', 'ghcr.io', 'quay.io', 'public.ecr.aws'];
const DOCKER_HUB_NAMESPACES = ['library', 'chrislusf', 'axllent', 'dxflrs', 'amazon'];
/** Gone or frozen: MinIO's (off Docker Hub since September 2026, community edition source-only), Bitnami's (paid since 2025). */
const GONE = [/(^|\/)minio\//, /^docker\.io\/bitnami(legacy)?\//];

/** Why an image reference would not pull a maintained, pinned image; null when it would. */
function imageProblem(image: string): string | null {
  const [name, tag] = image.includes('@') ? [image.split('@')[0], 'digest'] : splitTag(image);
  const gone = GONE.find((re) => re.test(name));
  if (gone) return `${image}: no longer published or maintained`;
  const first = name.split('/')[0];
  if (!first.includes('.') || name.split('/').length < 2) return `${image}: name the registry (e.g. docker.io/library/…)`;
  if (!REGISTRIES.includes(first)) return `${image}: ${first} is not a registry known to serve public images`;
  if (first === 'docker.io') {
    const namespace = name.split('/').length === 2 ? 'library' : name.split('/')[1];
    if (!DOCKER_HUB_NAMESPACES.includes(namespace)) return `${image}: ${namespace} is not a known maintained Docker Hub namespace`;
  }
  if (!tag || tag === 'latest' || !/\d/.test(tag)) return `${image}: pin a version tag (major or major.minor)`;
  return null;
}

function splitTag(image: string): [string, string | undefined] {
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  return colon > slash ? [image.slice(0, colon), image.slice(colon + 1)] : [image, undefined];
}

/** ${VAR}, ${VAR:-default}, ${VAR:?message} and $VAR, with compose's `$$` escape left alone. */
function interpolated(text: string): { name: string; op?: string; arg?: string }[] {
  const found: { name: string; op?: string; arg?: string }[] = [];
  const re = /\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;
  for (const m of text.matchAll(re)) {
    if (m[1] === '$') continue;
    found.push({ name: m[2] ?? m[5], op: m[3], arg: m[4] });
  }
  return found;
}

/** Variable names an env file sets (KEY=value lines). */
function envFileNames(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) =>
      l
        .replace(/^export\s+/, '')
        .split('=')[0]
        .trim(),
    );
}

function environmentNames(env: Service['environment']): string[] {
  if (!env) return [];
  return Array.isArray(env) ? env.map((e) => e.split('=')[0]) : Object.keys(env);
}

function envFiles(service: Service): string[] {
  const list = service.env_file === undefined ? [] : Array.isArray(service.env_file) ? service.env_file : [service.env_file];
  return list.map((f) => (typeof f === 'string' ? f : f.path));
}

function dependsOn(service: Service): string[] {
  const d = service.depends_on;
  return !d ? [] : Array.isArray(d) ? d : Object.keys(d);
}

/** Every string value in a parsed document: what compose interpolates (comments and keys are not). */
function strings(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(strings);
  if (node && typeof node === 'object') return Object.values(node).flatMap(strings);
  return [];
}

const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service> };
const services = compose.services;
const composeValues = strings(compose).join('\n');
const built = Object.entries(services).filter(([, s]) => s.build !== undefined);

describe('the checks themselves', () => {
  it('refuse images that are gone, unqualified, from unknown places or unpinned', () => {
    expect(imageProblem('minio/minio')).toMatch(/no longer/);
    expect(imageProblem('docker.io/minio/mc:RELEASE.2025-01-01')).toMatch(/no longer/);
    expect(imageProblem('quay.io/minio/minio:RELEASE.2025-09-07T16-13-09Z')).toMatch(/no longer/);
    expect(imageProblem('docker.io/bitnami/postgresql:15')).toMatch(/no longer/);
    expect(imageProblem('postgres:15')).toMatch(/name the registry/);
    expect(imageProblem('registry.example.com/team/app:1.0')).toMatch(/not a registry/);
    expect(imageProblem('docker.io/someone/thing:1.0')).toMatch(/namespace/);
    expect(imageProblem('docker.io/library/postgres')).toMatch(/pin/);
    expect(imageProblem('docker.io/library/postgres:latest')).toMatch(/pin/);
    expect(imageProblem('docker.io/library/postgres:15')).toBeNull();
    expect(imageProblem('ghcr.io/chrislusf/seaweedfs:4.40')).toBeNull();
  });

  it('find every interpolated variable, and not the $$ escape', () => {
    expect(interpolated('a ${A} b ${B:-x} c ${C:?set C} d $D e $$NOT').map((v) => v.name)).toEqual(['A', 'B', 'C', 'D']);
  });
});

describe('docker-compose.yml', () => {
  it('has the services of the production topology', () => {
    expect(Object.keys(services).sort()).toEqual(['app', 'mailpit', 'postgres', 'proxy', 'seaweedfs', 'setup']);
  });

  it('gives what it builds from this repository only variables that api/config.ts reads', () => {
    expect(built.map(([name]) => name).sort()).toEqual(['app', 'setup']);
    for (const [name, service] of built) {
      const names = environmentNames(service.environment);
      for (const file of envFiles(service)) {
        // An env file outside the repository (.env) is the operator's; one in the repository is checked like the rest.
        if (fs.existsSync(path.join(root, file))) names.push(...envFileNames(read(file)));
      }
      expect(names.length, name).toBeGreaterThan(0);
      expect(
        names.filter((n) => !CONFIG_VARIABLES.includes(n)),
        `${name}: variables api/config.ts does not read`,
      ).toEqual([]);
    }
  });

  it('pulls every other image from a registry that serves it, pinned to a version', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.build !== undefined) continue;
      expect(service.image, `${name} has an image`).toBeTruthy();
      expect(imageProblem(service.image!), name).toBeNull();
    }
  });

  it('documents every ${VAR} it uses in deploy/.env.example, uses every one documented, and one default for each', () => {
    const used = interpolated(composeValues);
    const documented = envFileNames(read('deploy/.env.example'));
    const names = [...new Set(used.map((v) => v.name))].sort();
    expect(
      names.filter((n) => !documented.includes(n)),
      'used but not in deploy/.env.example',
    ).toEqual([]);
    expect(
      documented.filter((n) => !names.includes(n)),
      'in deploy/.env.example but unused',
    ).toEqual([]);
    for (const name of names) {
      const defaults = new Set(used.filter((v) => v.name === name && v.op === ':-').map((v) => v.arg));
      expect(defaults.size, `${name} has different defaults`).toBeLessThanOrEqual(1);
    }
  });

  it('takes the secrets from .env, refusing to start without them, and hard-codes none', () => {
    const required = new Set(
      interpolated(composeValues)
        .filter((v) => v.op === ':?')
        .map((v) => v.name),
    );
    for (const secret of ['POSTGRES_PASSWORD', 'SESSION_SECRET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'ADMIN_PASSWORD']) {
      expect(required.has(secret), secret).toBe(true);
    }
    for (const [name, service] of Object.entries(services)) {
      const env = Array.isArray(service.environment) ? {} : (service.environment ?? {});
      for (const [key, value] of Object.entries(env)) {
        if (/PASSWORD|SECRET|ACCESS_KEY/.test(key)) expect(String(value), `${name}.${key}`).toMatch(/^\$\{[A-Z][A-Z0-9_]*:\?/);
      }
    }
  });

  it('lets the app scale (no fixed host port or container name) behind a proxy that publishes the ports', () => {
    expect(services.app.ports).toBeUndefined();
    expect(services.app.container_name).toBeUndefined();
    expect(services.proxy.ports?.map(String)).toEqual(expect.arrayContaining(['80:80', '443:443']));
    const port = String((services.app.environment as Record<string, unknown>).PORT ?? 3000);
    expect(read('deploy/Caddyfile')).toMatch(new RegExp(`dynamic a app ${port}\\b`));
  });

  it('starts services only after what they depend on, naming services that exist', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const dep of dependsOn(service)) expect(Object.keys(services), `${name} depends on ${dep}`).toContain(dep);
    }
    expect(services.app.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' }, setup: { condition: 'service_completed_successfully' } });
  });

  it('mounts only files that are in the repository', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? []) {
        const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source;
        if (source?.startsWith('.')) expect(fs.existsSync(path.join(root, source)), `${name}: ${source}`).toBe(true);
      }
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('builds on Node 24 in every stage, installing production dependencies only in the image it ships', () => {
    const bases = instructions.filter((l) => /^FROM\s/i.test(l)).map((l) => l.split(/\s+/)[1]);
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) {
      expect(base).toMatch(/^(docker\.io\/library\/)?node:24(-|$)/);
      expect(imageProblem(base.includes('/') ? base : `docker.io/library/${base}`)).toBeNull();
    }
    const runtime = instructions.slice(instructions.findLastIndex((l) => /^FROM\s/i.test(l)));
    expect(runtime.some((l) => /^RUN .*npm ci\b.*--omit=dev/.test(l))).toBe(true);
  });

  it('runs the compiled server as the node user, with a health check on /readyz', () => {
    expect(instructions).toContain('USER node');
    expect(instructions.find((l) => l.startsWith('HEALTHCHECK'))).toMatch(/\/readyz/);
    expect(instructions.at(-1)).toBe('CMD ["node", "dist/api/server.js"]');
    expect(instructions.findIndex((l) => l === 'USER node')).toBeLessThan(instructions.length - 1);
  });

  it('gives the server at most 2 malloc arenas, as npm start does (RSS on the event day)', () => {
    const runtime = instructions.slice(instructions.findLastIndex((l) => /^FROM\s/i.test(l)));
    expect(runtime.find((l) => /^ENV\s/.test(l))).toMatch(/\bMALLOC_ARENA_MAX=2\b/);
    expect(read('scripts/start.mjs')).toMatch(/MALLOC_ARENA_MAX: process\.env\.MALLOC_ARENA_MAX \?\? '2'/);
  });

  it('keeps secrets and local state out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['.env', 'node_modules', 'data', 'dist']) expect(ignored).toContain(entry);
  });
});
