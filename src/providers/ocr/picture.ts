import { loadImage, type Image } from '@napi-rs/canvas';

const decoded = new WeakMap<Buffer, Promise<Image>>();

/**
 * The picture in `image` decoded once: a page is looked at by the line detector, the isolation of
 * its type, the price readers and the glyph-run search, and a flyer page's PNG takes ~40 ms to
 * decode each time. Held as long as the buffer is.
 */
export function decodedPicture(image: Buffer): Promise<Image> {
  let picture = decoded.get(image);
  if (!picture) {
    picture = loadImage(image);
    decoded.set(image, picture);
  }
  return picture;
}
