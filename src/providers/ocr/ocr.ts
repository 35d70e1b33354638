/** A word the OCR engine read, with its box in image pixels and a confidence in 0..1. */
export interface OcrWord {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  confidence: number;
}

export interface OcrEngine {
  /** Reads an encoded image (PNG or JPEG bytes). */
  recognize(image: Buffer): Promise<OcrWord[]>;
  close(): Promise<void>;
}
