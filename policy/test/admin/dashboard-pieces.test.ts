import { expect } from 'chai';
import { RateLimitError } from '@gateway/shared';
import { html, escapeHtml } from '../../src/admin/dashboard/html.js';
import { isLoopback } from '../../src/admin/http/security.js';
import { SignInThrottle } from '../../src/admin/sign-in-throttle.js';

describe('dashboard pieces', function () {
  it('escapes every interpolated value, nested lists included, and keeps only Html built by the tag', function () {
    const name = `<script>alert("x")</script>' & \``;
    const out = html`<td title="${name}">${name}</td>${[name, html`<b>${name}</b>`]}`.value;
    expect(out).to.not.contain('<script>').and.not.contain(`"x"`);
    expect(out).to.contain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; &#96;');
    expect(out).to.contain('<b>&lt;script&gt;');
    expect(escapeHtml('"\'<>&')).to.equal('&quot;&#39;&lt;&gt;&amp;');
  });

  it('treats only loopback peers as loopback (Secure cookies everywhere else)', function () {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).to.equal(true);
    for (const a of ['10.0.0.1', '192.0.2.1', '::ffff:10.0.0.1', '2001:db8::1', '', undefined]) expect(isLoopback(a), String(a)).to.equal(false);
  });

  it('slows sign-ins after three failures, doubling the wait, per email and per address; a success clears it', function () {
    let now = 1_000_000;
    const t = new SignInThrottle(() => now);
    const keys = ['email:a@example.com', 'addr:192.0.2.1'];
    for (let i = 0; i < 2; i += 1) {
      t.check(keys);
      t.fail(keys);
    }
    t.check(keys);
    t.fail(keys); // third failure: locked 1 s
    expect(() => t.check(keys)).to.throw(RateLimitError);
    expect(() => t.check(['email:other@example.com', 'addr:192.0.2.1'])).to.throw(RateLimitError);
    now += 1_001;
    t.check(keys);
    t.fail(keys); // fourth: 2 s
    now += 1_500;
    let err: unknown;
    try {
      t.check(keys);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterSeconds).to.equal(1);
    now += 600;
    t.check(keys);
    t.succeed(keys);
    t.fail(keys);
    t.check(keys);
  });
});
