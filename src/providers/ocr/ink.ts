/** Ink is darker than this (0–255 luma): flyer print, dark or saturated, on light paper. */
export const INK = 150;

/** Whether the RGBA pixel at byte offset `i` is ink. */
export function isInk(rgba: Uint8ClampedArray, i: number): boolean {
  return rgba[i]! * 0.3 + rgba[i + 1]! * 0.59 + rgba[i + 2]! * 0.11 < INK;
}
