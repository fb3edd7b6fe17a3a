import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface RunningAzurite {
  connectionString: string;
  stop(): Promise<void>;
}

/** Azurite's well-known development account (public, documented by Microsoft; not a secret). */
const ACCOUNT = 'devstoreaccount1';
const KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** Starts Azurite's blob service on 127.0.0.1 (a free port, in memory) and answers how to reach it. */
export async function startAzurite(): Promise<RunningAzurite> {
  const main = join(dirname(createRequire(import.meta.url).resolve('azurite/package.json')), 'dist/src/blob/main.js');
  const child = spawn(
    process.execPath,
    [
      main,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      '0',
      '--inMemoryPersistence',
      '--silent',
      '--disableTelemetry',
      '--skipApiVersionCheck',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Azurite did not start: ${out}`)), 20_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`Azurite exited with ${code}: ${out}`)));
  });
  return {
    connectionString: `DefaultEndpointsProtocol=http;AccountName=${ACCOUNT};AccountKey=${KEY};BlobEndpoint=http://127.0.0.1:${port}/${ACCOUNT};`,
    stop: () =>
      new Promise((ok) => {
        if (child.exitCode !== null) return ok();
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  };
}
