import { expect } from 'chai';
import { phoneRecognizer } from '../../src/recognizers/phone.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/phone', () => {
  const find = (text: string): string[] => findValues(phoneRecognizer, text);

  it('finds UK numbers in the usual printed forms (GB is the default region)', () => {
    for (const n of [
      '020 7946 0958',
      '(020) 7946 0958',
      '0161 496 0000',
      '01632 960 123',
      '07911 123456',
      '07700 900123',
      '07700900123',
      '0800 800 150',
      '020-7946-0958',
      '+44 20 7946 0958',
      '+44 (0)20 7946 0958',
      '+447700900123',
      '0044 20 7946 0958',
    ]) {
      expect(find(`Call me on ${n} please.`), n).to.deep.equal([n]);
    }
  });

  it('finds international numbers with a + prefix anywhere', () => {
    expect(find('Contact +33 6 12 34 56 78 or +49 30 1234567.')).to.deep.equal(['+33 6 12 34 56 78', '+49 30 1234567']);
    expect(find('<a href="tel:+442079460958">')).to.deep.equal(['+442079460958']);
  });

  it('keeps an extension and drops an unrelated trailing number', () => {
    expect(find('Ring me: 0121 496 0018 ext. 204')).to.deep.equal(['0121 496 0018 ext. 204']);
    expect(find('Tel 020 7946 0958 2 times')).to.deep.equal(['020 7946 0958']);
  });

  it('accepts national numbers of other regions only with phone context', () => {
    expect(find('Phone:\n60-56-85-91')).to.deep.equal(['60-56-85-91']);
    expect(find('They are not answering at 0490 75 40 81')).to.deep.equal(['0490 75 40 81']);
    expect(find('The code is 60-56-85-91')).to.deep.equal([]);
    expect(find('Fax: 9498777106')).to.deep.equal(['9498777106']);
  });

  it('accepts a North American shape that libphonenumber validates', () => {
    expect(find('my registered 905-674-3793 number')).to.deep.equal(['905-674-3793']);
    expect(find('123-456-7890')).to.deep.equal([]);
  });

  it('rejects order ids, timestamps, dates and other digit runs', () => {
    for (const text of [
      'Order #4829173650 has shipped',
      'Your order 112-4839201-2283941 was dispatched',
      'created_at: 1700000000123',
      'ts=1700000000 level=info',
      'Meeting on 2024-01-15 at 10:30',
      'Born 15/01/1990',
      'Windows version 10.0.19045.3693',
      'ISBN 978-0-306-40615-7',
      'The site had 1 234 567 visitors',
      '"order_id": 4353461820382',
      'Reference 0624 8234 6387',
      'Transfer to GB00 WEST 0065 5101 3606 24 failed',
      'server at 192.168.10.1',
      '550e8400-e29b-41d4-a716-446655440000',
      // Years from and to after a name: a lifespan or a term, not a contact line's number.
      'Johann Sebastian Bach (1685-1750) was a composer.',
      'Senior Engineer at Acme Widgets (2015-2019), then Globex (2019 - 2023).',
      'Please call about the 2010-2012 accounts.',
    ]) {
      expect(find(text), text).to.deep.equal([]);
    }
    // Two four-digit groups that are no rising pair of years are still read as a number.
    expect(find('Jan Kowalski (2123-4567)')).to.deep.equal(['2123-4567']);
  });

  it('gives phone context to the nearest number only', () => {
    expect(find('Tel: 0300 305 6717 UTR 5204491741')).to.deep.equal(['0300 305 6717']);
    expect(find('Call 0161 496 0000 or 9472 7916')).to.deep.equal(['0161 496 0000', '9472 7916']);
  });
});
