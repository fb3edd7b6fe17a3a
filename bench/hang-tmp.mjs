import { PassThrough, Transform } from 'node:stream';
import { mkdtempSync } from 'node:fs'; import { tmpdir } from 'node:os'; import { join } from 'node:path';
import { EncryptedFileVault, MasterKeyring } from '@fundi/application';
import { LocalDiskFileStore } from '@fundi/adapters';
const vault = new EncryptedFileVault(new LocalDiskFileStore(mkdtempSync(join(tmpdir(), 'h-'))), new MasterKeyring([Buffer.alloc(32, 1)]));
const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 65)]);
for (const [label, mk] of [['short end later', (s) => { setTimeout(() => { s.write(pdf.subarray(0, 100)); setTimeout(() => s.end(), 20); }, 20); }], ['short at once', (s) => { s.end(pdf.subarray(0, 100)); }]]) {
  const src = new PassThrough(); const lim = new Transform({ transform(c, e, d) { d(null, c); } }); src.pipe(lim);
  mk(src);
  const t = setTimeout(() => { console.log(label, 'HANG'); process.exit(1); }, 3000);
  try { await vault.store(`t/${label.replace(/ /g, '')}`, lim, { expectSize: 209 }); console.log(label, 'stored?'); } catch (e) { console.log(label, 'rejected:', e.message); }
  clearTimeout(t);
}
