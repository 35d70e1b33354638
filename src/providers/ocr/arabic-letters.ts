/**
 * Arabic and Persian write yeh and kaf differently (ي ى / ی, ك / ک), and OCR mixes the two within
 * one page: text is compared, or made consistent, in one of the two forms.
 */
export function inPersianForms(text: string): string {
  return text.replace(/[يى]/gu, 'ی').replace(/ك/gu, 'ک');
}

export function inArabicForms(text: string): string {
  return text.replace(/ی/gu, 'ي').replace(/ک/gu, 'ك');
}
