import { expect } from 'chai';
import { emailRecognizer } from '../../src/recognizers/email.js';
import { findValues } from './find-values.js';

describe('privacy/recognizers/email', () => {
  const find = (text: string): string[] => findValues(emailRecognizer, text);

  it('finds addresses in prose, brackets, quotes and mailto links', () => {
    expect(find('Reply to jane.doe@example.co.uk by Friday.')).to.deep.equal(['jane.doe@example.co.uk']);
    expect(find('From: Sam <sam+news@mail.gov.uk>')).to.deep.equal(['sam+news@mail.gov.uk']);
    expect(find("Send it to 'O.Brien_99@Example.COM'.")).to.deep.equal(['O.Brien_99@Example.COM']);
    expect(find('[a@b.io](mailto:a@b.io)')).to.deep.equal(['a@b.io', 'a@b.io']);
    expect(find('x@sub.dept.example.org, y@xn--bcher-kva.example')).to.deep.equal([
      'x@sub.dept.example.org',
      'y@xn--bcher-kva.example',
    ]);
  });

  it('stops the domain before trailing punctuation and non-TLD labels', () => {
    expect(find('Mail me at a@example.com.')).to.deep.equal(['a@example.com']);
    expect(find('a@example.com.123')).to.deep.equal(['a@example.com']);
  });

  it('rejects look-alikes', () => {
    expect(find('@channel please review')).to.deep.equal([]);
    expect(find('user@localhost')).to.deep.equal([]);
    expect(find('a..b@example.com')).to.deep.equal([]);
    expect(find('john.@example.com')).to.deep.equal([]);
    expect(find('pkg@1.2.3 and scope@latest')).to.deep.equal([]);
    expect(find(`${'a'.repeat(65)}@example.com`)).to.deep.equal([]);
    expect(find('x@-bad-.com')).to.deep.equal([]);
  });

  it("reads a URL's user name and host as no address", () => {
    expect(find('DATABASE_URL=postgres://app@db.internal.example.com:5432/app')).to.deep.equal([]);
    expect(find('git clone https://deploy@git.example.com/repo.git')).to.deep.equal([]);
    expect(find('postgres://app:secret@db.internal.example.com:5432/app')).to.deep.equal([]);
    expect(find('https://user:pass@example.com/x')).to.deep.equal([]);
    expect(find('mailto:jane@example.com')).to.deep.equal(['jane@example.com']);
  });
});
