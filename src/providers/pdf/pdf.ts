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
  close(): Promise<void>;
}

/** The bytes are not a PDF that can be read (permanent: retrying does not help). */
export class InvalidPdfError extends Error {}

export interface PdfReader {
  open(bytes: Uint8Array): Promise<PdfDocument>;
}
