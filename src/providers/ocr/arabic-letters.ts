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

/**
 * Letters OCR takes for one another in Arabic script, in Persian forms: the same stroke with its
 * dots or its bar lost or added ("کوشت" for "گوشت", "برتج" for "برنج"). A misread letter may
 * stand for any of its group.
 */
export const SAME_STROKE = ['بپتثنی', 'جچحخ', 'دذ', 'رزژ', 'سش', 'صض', 'طظ', 'عغ', 'فق', 'کگ'];
