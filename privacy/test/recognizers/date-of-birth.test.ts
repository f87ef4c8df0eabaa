import { expect } from 'chai';
import { dateOfBirthRecognizer } from '../../src/recognizers/date-of-birth.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/date-of-birth', () => {
  const find = (text: string): string[] => findValues(dateOfBirthRecognizer, text);

  it('finds dates after birth context in numeric and written forms', () => {
    expect(find('DOB: 14/07/1983')).to.deep.equal(['14/07/1983']);
    expect(find('Date of birth 1983-07-14')).to.deep.equal(['1983-07-14']);
    expect(find('She was born on 3rd March 1979 in Cardiff')).to.deep.equal(['3rd March 1979']);
    expect(find('born March 3, 1979')).to.deep.equal(['March 3, 1979']);
    expect(find('Birthday: 7/31/1990')).to.deep.equal(['7/31/1990']);
  });

  it("finds dates after each language's birth words", () => {
    for (const [text, value] of [
      ['Geb.-Datum 04.10.1989', '04.10.1989'],
      ['née le 24/12/1981 à Lyon', '24/12/1981'],
      ['nacido el 14/05/1956', '14/05/1956'],
      ['nata il 06/11/1978', '06/11/1978'],
      ['urodzona 21.06.1978', '21.06.1978'],
      ['ur. 21.06.1978', '21.06.1978'],
      ['Geboortedatum: 13-02-1945', '13-02-1945'],
      ['geb. 13-02-1945', '13-02-1945'],
    ]) {
      expect(find(text ?? ''), text).to.deep.equal([value]);
    }
    expect(find('Lieferung am 04.10.2025, la commande du 24/12/2025')).to.deep.equal([]);
    // "ne le" (French "not … it") is no birth word; "née le" is.
    expect(find('je ne le crois pas: 03/04/1990')).to.deep.equal([]);
  });

  it('ignores dates without birth context and impossible dates', () => {
    expect(find('Meeting on 14/07/2024')).to.deep.equal([]);
    expect(find('DOB: 31/02/1983')).to.deep.equal([]);
    expect(find('DOB: 14/13/1983')).to.deep.equal([]);
    expect(find('Date of birth unknown. Appointment 14/07/2024 at the clinic, and much later text')).to.deep.equal([]);
  });
});
