import yauzl from 'yauzl';

/** The entries of a ZIP, by name (yauzl reads it back): for tests of ZIP downloads and exports. */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => {
      if (err || !z) return reject(err);
      const out = new Map<string, Buffer>();
      z.on('entry', (entry: yauzl.Entry) => {
        z.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            z.readEntry();
          });
        });
      });
      z.on('end', () => resolve(out));
      z.readEntry();
    });
  });
}
