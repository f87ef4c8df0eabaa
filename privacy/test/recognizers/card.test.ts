import { expect } from 'chai';
import { cardRecognizer, isLuhnValid, isPlausibleCard } from '../../src/recognizers/card.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/card', () => {
  const find = (text: string): string[] => findValues(cardRecognizer, text);

  it('checks Luhn and issuer prefixes', () => {
    expect(isLuhnValid('4111111111111111')).to.equal(true);
    expect(isLuhnValid('4111111111111112')).to.equal(false);
    expect(isPlausibleCard('4111111111111111')).to.equal(true);
    expect(isPlausibleCard('378282246310005')).to.equal(true);
    expect(isPlausibleCard('978282246310005')).to.equal(false);
    expect(isPlausibleCard('5555555555554444')).to.equal(true);
    expect(isPlausibleCard('55555555555544')).to.equal(false);
  });

  it('finds cards of the major schemes, compact and grouped', () => {
    for (const card of [
      '4111 1111 1111 1111',
      '4111-1111-1111-1111',
      '4111111111111111',
      '5555 5555 5555 4444',
      '2223 0031 2200 3222',
      '3782 822463 10005',
      '6011 1111 1111 1117',
      '3530 1113 3330 0000',
      '4131034282458809939',
    ]) {
      expect(find(`Card ${card} was declined.`), card).to.deep.equal([card]);
    }
  });

  it('ends the card before an expiry date or a following number', () => {
    expect(find('4111 1111 1111 1111 12/25')).to.deep.equal(['4111 1111 1111 1111']);
    expect(find('PAN: 4111-1111-1111-1111 78 High Street')).to.deep.equal(['4111-1111-1111-1111']);
  });

  it('needs card context for 12- and 13-digit numbers', () => {
    expect(find('What is the limit for card 501864667909?')).to.deep.equal(['501864667909']);
    expect(find('Reference 501864667909')).to.deep.equal([]);
    expect(find('Please charge my credit card. Number is 4563824065059')).to.deep.equal(['4563824065059']);
    expect(find('"order_id": 4353461820382')).to.deep.equal([]);
  });

  it('rejects failing Luhn, unknown prefixes, odd grouping and id labels', () => {
    expect(find('4111 1111 1111 1112')).to.deep.equal([]);
    expect(find('Gift code 7401-2231-9983-4414')).to.deep.equal([]);
    expect(find('4111 11111111 1111')).to.deep.equal([]);
    expect(find('6117 4102 0529 73')).to.deep.equal([]);
    expect(find('Order 4111111111111111')).to.deep.equal([]);
    expect(find('1700000000123')).to.deep.equal([]);
  });
});
