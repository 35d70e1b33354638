import { describe, expect, it } from 'vitest';
import {
  countOutliers,
  forScoring,
  namesMatch,
  scoreFlyer,
  type ExtractedOfferForScoring,
  type FlyerLabels,
} from './scoring.ts';

const offer = (o: Partial<ExtractedOfferForScoring>): ExtractedOfferForScoring => ({
  page: 1,
  product: 'x',
  brand: '',
  price: 1,
  regularPrice: null,
  unit: '',
  validUntil: '2026-12-01',
  ...o,
});

describe('the flyer scoring rule', () => {
  it('matches names loosely: containment, or 60 % of the shorter name’s tokens, after NFKC and case folding', () => {
    expect(namesMatch('Arroz Tio João 5kg', 'arroz tio joão')).toBe(true);
    expect(namesMatch('ＣＯＣＡ－ＣＯＬＡ 2L', 'coca cola')).toBe(true);
    expect(namesMatch('Leite Integral Piracanjuba 1L', 'Leite Piracanjuba integral caixa')).toBe(true);
    expect(namesMatch('Leite condensado', 'Creme de leite')).toBe(false);
    expect(namesMatch('', 'milk')).toBe(false);
  });

  it('matches one to one in label order on page, price ±0.01 and name; scores the negative control by extraction only', () => {
    const labels: FlyerLabels = {
      file: 'f.pdf',
      validity: { valid_until: '2026-12-01' },
      pages_labelled: [1],
      offers: [
        { page: 1, product: 'Bananas', price: 0.59, regular_price: 0.79 },
        { page: 1, product: 'Bananas', price: 0.59 },
        { page: 1, product: 'Apples', price: 1.29 },
      ],
    };
    const score = scoreFlyer(labels, [
      offer({ product: 'BANANAS', price: 0.595, regularPrice: 0.79 }),
      offer({ product: 'apples', price: 12.9 }),
      offer({ product: 'noise', price: 3, page: 2 }),
    ]);
    expect(score).toMatchObject({
      extracted: 2,
      labelled: 3,
      matched: 1,
      precision: 0.5,
      regularAccuracy: 1,
    });
    expect(score.recall).toBeCloseTo(1 / 3);
    // Apples paired by name with a wrong price: price accuracy 1 of 2.
    expect(score.priceAccuracy).toBe(0.5);
    expect(score.validityRight).toBe(true);
    const negative = scoreFlyer({ file: 'n.pdf', pages_labelled: [1], offers: [] }, [offer({})]);
    expect(negative).toMatchObject({ precision: 0, recall: 1, validityRight: undefined });
  });

  it('counts prices over 10x the median unless the unit explains them', () => {
    const offers = [1, 2, 2, 3, 40].map((price) => offer({ price }));
    expect(countOutliers(offers)).toBe(1);
    expect(countOutliers([...offers.slice(0, 4), offer({ price: 40, unit: '1 Sack (10Kg)' })])).toBe(0);
    expect(countOutliers([...offers.slice(0, 4), offer({ price: 7991.99, unit: 'per kg' })])).toBe(1);
  });

  it('scores a reader offer with its regular price only when it is higher', () => {
    const read = { product: 'Feijão', brand: 'Kicaldo', unit: '1 kg', confidence: 0.8 };
    expect(forScoring(2, { ...read, originalPrice: 8.99, discountedPrice: 7.49 })).toEqual({
      page: 2,
      product: 'Feijão',
      brand: 'Kicaldo',
      price: 7.49,
      regularPrice: 8.99,
      unit: '1 kg',
      validUntil: '',
      confidence: 0.8,
    });
    expect(forScoring(1, { ...read, originalPrice: 7.49, discountedPrice: 7.49 }).regularPrice).toBeNull();
  });
});
