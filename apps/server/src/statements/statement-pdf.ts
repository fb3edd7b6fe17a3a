import jsQRModule from 'jsqr';
import { PDFDocument, PDFName, type PDFNumber, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

// jsqr's types declare an ES default export; Node hands over its CommonJS `module.exports`, the function itself.
const jsQR = jsQRModule as unknown as (typeof jsQRModule)['default'];

/** A statement's PDF read back with pdf-lib: its keywords, the text it draws, and what its QR code says. */
export async function readStatementPdf(
  bytes: Uint8Array,
): Promise<{ keywords: string; text: string; qr: string | null }> {
  const doc = await PDFDocument.load(bytes);
  const streams = doc.context.enumerateIndirectObjects().flatMap(([, o]) => (o instanceof PDFRawStream ? [o] : []));
  let text = '';
  let qr: string | null = null;
  for (const s of streams) {
    const subtype = s.dict.get(PDFName.of('Subtype'));
    const data = decodePDFRawStream(s).decode();
    if (subtype === PDFName.of('Image')) {
      const width = (s.dict.get(PDFName.of('Width')) as PDFNumber).asNumber();
      const height = (s.dict.get(PDFName.of('Height')) as PDFNumber).asNumber();
      const channels = data.length / (width * height);
      if (channels !== 3 && channels !== 1) continue;
      // Scaled up as a viewer shows it: a pixel per module is too small for the reader.
      const k = Math.max(1, Math.ceil(300 / width));
      const w = width * k;
      const h = height * k;
      const rgba = new Uint8ClampedArray(w * h * 4);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const i = Math.floor(y / k) * width + Math.floor(x / k);
          const o = (y * w + x) * 4;
          for (let c = 0; c < 3; c++) rgba[o + c] = data[i * channels + (channels === 3 ? c : 0)]!;
          rgba[o + 3] = 255;
        }
      qr = jsQR(rgba, w, h)?.data ?? qr;
    } else if (!s.dict.get(PDFName.of('Type')) && !subtype) {
      // A page's content: text is drawn as hex strings of WinAnsi codes (`<...> Tj`).
      const ops = Buffer.from(data).toString('latin1');
      for (const m of ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
        text += `${Buffer.from(m[1]!, 'hex').toString('latin1')}\n`;
    }
  }
  return { keywords: doc.getKeywords() ?? '', text, qr };
}
