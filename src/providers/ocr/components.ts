/** A patch of 4-connected set pixels: its bounds (inclusive), size and summed weight. */
export interface Component {
  left: number;
  top: number;
  right: number;
  bottom: number;
  pixels: number;
  /** The sum of `weight` over its pixels (0 without weights). */
  weight: number;
}

/**
 * The 4-connected patches of set pixels of a mask (row-major, `width` × `height`), found with an
 * explicit stack (a page-sized patch would overflow recursion). `weight`, when given, is summed
 * per patch (a detector's probabilities, for their mean).
 */
export function components(
  mask: Uint8Array,
  width: number,
  height: number,
  weight?: Float32Array,
): Component[] {
  const seen = new Uint8Array(mask.length);
  const stack: number[] = [];
  const out: Component[] = [];
  const visit = (j: number) => {
    if (!mask[j] || seen[j]) return;
    seen[j] = 1;
    stack.push(j);
  };
  for (let start = 0; start < mask.length; start += 1) {
    if (!mask[start] || seen[start]) continue;
    const c: Component = { left: width, top: height, right: 0, bottom: 0, pixels: 0, weight: 0 };
    visit(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      c.pixels += 1;
      c.weight += weight?.[i] ?? 0;
      if (x < c.left) c.left = x;
      if (x > c.right) c.right = x;
      if (y < c.top) c.top = y;
      if (y > c.bottom) c.bottom = y;
      if (x > 0) visit(i - 1);
      if (x < width - 1) visit(i + 1);
      if (y > 0) visit(i - width);
      if (y < height - 1) visit(i + width);
    }
    out.push(c);
  }
  return out;
}
