/**
 * What the flyer pipeline needs from a PDF: per page, the text items with their boxes (origin at
 * the TOP-left, y growing downwards, in PDF points) and, for pages without text, the raster images
 * the page embeds (decoded pixels, for OCR).
 */
export interface PdfTextItem {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RasterImage {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  data: Uint8ClampedArray;
}

/** A whole page drawn to pixels (for pages whose text is vector outlines, neither text nor image). */
export interface RenderedPage {
  png: Buffer;
  width: number;
  height: number;
}

export interface PdfPage {
  number: number;
  width: number;
  height: number;
  items: PdfTextItem[];
}

export interface PdfDocument {
  pageCount: number;
  page(number: number): Promise<PdfPage>;
  images(number: number): Promise<RasterImage[]>;
  /** The page drawn at `scale` (1 = one pixel per PDF point). */
  render(number: number, scale: number): Promise<RenderedPage>;
  close(): Promise<void>;
}

/** The bytes are not a PDF that can be read (permanent: retrying does not help). */
export class InvalidPdfError extends Error {}

/** A PDF beyond the reading limits (pages, image size, time, memory): permanent too. */
export class PdfLimitExceeded extends InvalidPdfError {}

export interface PdfReader {
  open(bytes: Uint8Array): Promise<PdfDocument>;
}
