import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** Debian's fonts-dejavu-core (installed by the project's setup, as for the generated flyers). */
export const PHOTO_FLYER_FACE = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
export const photoFlyerFaceAvailable = existsSync(PHOTO_FLYER_FACE);

let registered = false;
function face(): string {
  if (!registered) GlobalFonts.registerFromPath(PHOTO_FLYER_FACE, 'PhotoFlyerFace');
  registered = true;
  return 'PhotoFlyerFace';
}

/** A repeatable pseudo-random sequence (the same picture every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** Stand-ins for product photos: overlapping coloured ellipses with grain. */
function photo(g: SKRSContext2D, x: number, y: number, w: number, h: number, next: () => number): void {
  for (let i = 0; i < 7; i += 1) {
    g.fillStyle = `hsl(${Math.floor(next() * 360)}, 70%, ${35 + Math.floor(next() * 30)}%)`;
    g.beginPath();
    const rx = 15 + next() * w * 0.2;
    const ry = 12 + next() * h * 0.2;
    g.ellipse(x + rx + next() * (w - 2 * rx), y + ry + next() * (h - 2 * ry), rx, ry, 0, 0, 7);
    g.fill();
  }
}

function grain(g: SKRSContext2D, width: number, height: number, next: () => number): void {
  const pixels = g.getImageData(0, 0, width, height);
  for (let i = 0; i < pixels.data.length; i += 4) {
    const n = (next() - 0.5) * 40;
    for (let c = 0; c < 3; c += 1) pixels.data[i + c] = Math.max(0, Math.min(255, pixels.data[i + c]! + n));
  }
  g.putImageData(pixels, 0, 0);
}

export interface PhotoTile {
  name: string;
  price: string;
}

/**
 * A phone-story flyer page (the kind small grocers post and print): a dark green grainy ground,
 * a huge headline, per tile a small name on a white label, a photo, and the price in white on a
 * brown plaque; the validity in a speech bubble. One JPEG, no text layer.
 */
export function photoStoryPage(tiles: readonly PhotoTile[], validity: string): Buffer {
  const width = 1080;
  const height = 1920;
  const next = random(7);
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#1f7a2a';
  g.fillRect(0, 0, width, height);
  photo(g, 0, 0, width, 250, next);
  g.fillStyle = '#f4c400';
  g.font = `bold 150px ${face()}`;
  g.fillText('FEIRA', 300, 480);
  tiles.forEach((tile, i) => {
    const x = 70 + (i % 2) * 500;
    const y = 620 + Math.floor(i / 2) * 520;
    photo(g, x + 60, y + 90, 320, 160, next);
    g.fillStyle = '#ffffff';
    g.fillRect(x + 40, y, 360, 56);
    g.fillStyle = '#5a1010';
    g.font = `bold 30px ${face()}`;
    g.fillText(tile.name, x + 60, y + 40);
    g.fillStyle = '#6b3b1c';
    g.fillRect(x + 40, y + 280, 390, 110);
    g.fillStyle = '#ffffff';
    g.font = `bold 72px ${face()}`;
    g.fillText(tile.price, x + 60, y + 362);
  });
  g.fillStyle = '#ffffff';
  g.fillRect(150, 1700, 800, 110);
  g.fillStyle = '#103010';
  g.font = `bold 40px ${face()}`;
  g.fillText(validity, 190, 1770);
  grain(g, width, height, next);
  return canvas.toBuffer('image/jpeg', 90);
}

/** A PDF of one image page per picture, no text layer (as Ghostscript wraps phone-story JPEGs). */
export async function imagePagesPdf(pictures: readonly Buffer[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const picture of pictures) {
    const image = await pdf.embedJpg(picture);
    const page = pdf.addPage([image.width, image.height]);
    page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  }
  return pdf.save();
}

/** One offer card as a picture: product name and price on a white card with a photo (Canva style). */
function card(tile: PhotoTile, seed: number): Buffer {
  const next = random(seed);
  const canvas = createCanvas(360, 450);
  const g = canvas.getContext('2d');
  g.fillStyle = '#0d4d1e';
  g.fillRect(0, 0, 360, 450);
  photo(g, 150, 120, 200, 200, next);
  g.fillStyle = '#ffffff';
  g.font = `bold 24px ${face()}`;
  g.fillText(tile.name, 20, 150);
  g.fillRect(20, 300, 200, 90);
  g.fillStyle = '#000000';
  g.font = `bold 64px ${face()}`;
  g.fillText(tile.price, 30, 370);
  grain(g, 360, 450, next);
  return canvas.toBuffer('image/jpeg', 90);
}

/**
 * A text page whose offers are pictures: its text layer holds only a heading and the validity
 * line, and every offer (name and price) is in a card image placed on the page, two by two.
 */
export async function cardsPdf(
  tiles: readonly PhotoTile[],
  heading: string,
  validity: string,
  options: { textLayer?: boolean } = {},
) {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([810, 1440]);
  // Without a text layer the page is only its card pictures (an export of a design tool's cards).
  if (options.textLayer !== false) {
    const font = await pdf.embedFont(StandardFonts.HelveticaBold);
    page.drawText(heading, { x: 70, y: 1300, size: 48, font });
    page.drawText(validity, { x: 70, y: 120, size: 24, font });
  }
  for (const [i, tile] of tiles.entries()) {
    const image = await pdf.embedJpg(card(tile, 11 + i));
    const x = 40 + (i % 2) * 380;
    const y = 1180 - (Math.floor(i / 2) + 1) * 470;
    page.drawImage(image, { x, y, width: 360, height: 450 });
  }
  return pdf.save();
}
