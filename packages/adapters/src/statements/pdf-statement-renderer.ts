import type { StatementContent, StatementRenderer } from '@fundi/application/statements';
import {
  PDFDocument,
  StandardFonts,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import QRCode from 'qrcode';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const OUTCOME_TEXT = { C: 'Competent', NYC: 'Not yet competent' } as const;
const OVERALL = { completed: 'Completed', competent: 'Competent', not_yet_competent: 'Not yet competent' } as const;

/** Text the standard fonts can draw (WinAnsi): other characters become `?`. */
const drawable = (s: string) => s.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?');

/** One page after another, top to bottom. */
class Layout {
  page!: PDFPage;
  y = 0;
  constructor(
    private readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.newPage();
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  line(text: string, o: { size?: number; bold?: boolean; x?: number; gap?: number } = {}) {
    const size = o.size ?? 10;
    if (this.y - size < MARGIN) this.newPage();
    this.page.drawText(drawable(text), {
      x: MARGIN + (o.x ?? 0),
      y: this.y - size,
      size,
      font: o.bold ? this.bold : this.font,
      color: rgb(0.1, 0.1, 0.1),
    });
    this.y -= size + (o.gap ?? 6);
  }
  /** Cells on one line at the given offsets, each cut to its width. */
  row(cells: readonly string[], xs: readonly number[], o: { bold?: boolean } = {}) {
    const size = 9;
    if (this.y - size < MARGIN) this.newPage();
    const font = o.bold ? this.bold : this.font;
    cells.forEach((c, i) => {
      const width = (xs[i + 1] ?? A4[0] - 2 * MARGIN) - xs[i]! - 6;
      let t = drawable(c);
      if (font.widthOfTextAtSize(t, size) > width) {
        while (t.length > 1 && font.widthOfTextAtSize(`${t}...`, size) > width) t = t.slice(0, -1);
        t = `${t}...`;
      }
      this.page.drawText(t, { x: MARGIN + xs[i]!, y: this.y - size, size, font });
    });
    this.y -= size + 5;
  }
}

/**
 * The Statement of Results as a PDF (pdf-lib, standard fonts): provider, learner, programme, every module with its
 * outcome, date and assessor, the overall outcome, the issue date, and the verification code with a QR code of the
 * verification URL (docs/api.md, "Statements of Results").
 */
export class PdfStatementRenderer implements StatementRenderer {
  async render(c: StatementContent): Promise<Buffer> {
    const doc = await PDFDocument.create();
    doc.setTitle(`Statement of Results - ${drawable(c.programme.name)}`);
    doc.setSubject(`Statement of Results ${c.statementId}`);
    doc.setKeywords([c.verificationCode]);
    doc.setProducer('Fundi');
    doc.setCreator('Fundi');
    const at = new Date(`${c.issuedOn}T00:00:00Z`);
    doc.setCreationDate(at);
    doc.setModificationDate(at);
    const l = new Layout(
      doc,
      await doc.embedFont(StandardFonts.Helvetica),
      await doc.embedFont(StandardFonts.HelveticaBold),
    );
    drawQr(doc, l.page, c.verifyUrl, { x: A4[0] - MARGIN - 96, y: A4[1] - MARGIN - 96, size: 96 });

    l.line('Statement of Results', { size: 20, bold: true, gap: 12 });
    l.line(c.provider.name, { size: 12, bold: true });
    l.line(`SDP accreditation code: ${c.provider.sdpCode ?? 'not set'}`, { gap: 16 });
    l.line('Learner', { size: 12, bold: true });
    l.line(c.learner.name);
    l.line(`${c.learner.identifierType}: ${c.learner.identifier}`, { gap: 16 });
    l.line('Programme', { size: 12, bold: true });
    l.line(`${c.programme.name} (${c.programme.code})`);
    l.line(
      [
        `Qualification: ${c.programme.qualificationId ?? '-'}`,
        `NQF level: ${c.programme.nqfLevel ?? '-'}`,
        `Credits: ${c.programme.credits ?? '-'}`,
      ].join('    '),
      { gap: 16 },
    );
    const xs = [0, 60, 200, 240, 320, 380];
    l.row(['Module', 'Name', 'Credits', 'Outcome', 'Achieved', 'Assessor'], xs, { bold: true });
    for (const m of c.modules)
      l.row(
        [
          m.code,
          m.name,
          m.credits === null ? '-' : String(m.credits),
          OUTCOME_TEXT[m.outcome],
          m.achievedOn,
          m.assessor,
        ],
        xs,
      );
    l.y -= 10;
    l.line(`Outcome: ${OVERALL[c.outcome]}`, { size: 12, bold: true });
    l.line(`Issued on: ${c.issuedOn}`, { gap: 16 });
    l.line(`Verification code: ${c.verificationCode}`, { bold: true });
    l.line(`Verify at ${c.verifyUrl}`, { size: 9 });
    l.line(
      'The verification page tells whether this statement stands or was revoked, and checks a copy of this file.',
      {
        size: 8,
      },
    );
    return Buffer.from(await doc.save({ useObjectStreams: false }));
  }
}

/** White modules around the code, as the QR standard asks. */
const QUIET = 2;

/**
 * The QR code of `text` as a grey image of one pixel per module, drawn scaled without smoothing: far cheaper than
 * encoding a PNG for pdf-lib to decode again, and as sharp at any size.
 */
function drawQr(doc: PDFDocument, page: PDFPage, text: string, at: { x: number; y: number; size: number }): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size + 2 * QUIET;
  const pixels = new Uint8Array(n * n).fill(255);
  for (let y = 0; y < modules.size; y++)
    for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) pixels[(y + QUIET) * n + x + QUIET] = 0;
  const image = doc.context.flateStream(pixels, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: n,
    Height: n,
    BitsPerComponent: 8,
    ColorSpace: 'DeviceGray',
    Interpolate: false,
  });
  const name = page.node.newXObject('QR', doc.context.register(image));
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(at.size, 0, 0, at.size, at.x, at.y),
    drawObject(name),
    popGraphicsState(),
  );
}
