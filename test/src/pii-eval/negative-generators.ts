import type { Prng } from '../support/prng.js';

// Hard negatives: text that looks like PII to a naive pattern but is not (order ids, timestamps, UUIDs,
// digit runs shaped like phones or NHS numbers that fail their checks, code). None of it is labelled.

/** `n` lower-case hex digits. */
export function hex(r: Prng, n: number): string {
  return r.letters(n, '0123456789abcdef');
}

function nhsLikeInvalid(r: Prng): string {
  for (;;) {
    const d = `${r.int(1, 9)}${r.digits(9)}`;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += Number(d[i]) * (10 - i);
    const check = (11 - (sum % 11)) % 11;
    if (check !== Number(d[9])) return d;
  }
}

function nhsValidBare(r: Prng): string {
  for (;;) {
    const body = `${r.int(1, 9)}${r.digits(8)}`;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += Number(body[i]) * (10 - i);
    const check = (11 - (sum % 11)) % 11;
    if (check !== 10) return `${body}${check}`;
  }
}

function luhnInvalid16(r: Prng): string {
  for (;;) {
    const d = `4${r.digits(15)}`;
    let sum = 0;
    for (let i = 0; i < 16; i++) {
      let x = Number(d[15 - i]);
      if (i % 2 === 1) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
      sum += x;
    }
    if (sum % 10 !== 0) return d;
  }
}

/** A version 4 UUID. */
export function uuid(r: Prng): string {
  return `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-${r.pick(['8', '9', 'a', 'b'])}${hex(r, 3)}-${hex(r, 12)}`;
}

const NEGATIVES: ReadonlyArray<(r: Prng) => string> = [
  // order and reference ids
  (r) => `Order #${r.int(1, 9)}${r.digits(9)} has shipped.`,
  (r) => `Your order ${r.digits(3)}-${r.digits(7)}-${r.digits(7)} was dispatched today.`,
  (r) => `Ref: ORD-2024-${r.digits(6)}`,
  (r) => `PO number ${r.int(4, 5)}${r.digits(9)} approved.`,
  (r) => `Invoice INV-${r.digits(8)} is overdue by ${r.int(2, 40)} days.`,
  (r) => `Customer ID ${nhsValidBare(r)} updated their preferences.`,
  (r) => `Tracking: 1Z${r.letters(3, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789')}${r.digits(13)}`,
  (r) => `Your UTR is ${r.int(1, 9)}${r.digits(9)}.`,
  (r) => `Ticket ${r.digits(4)} ${r.digits(3)} ${r.digits(3)} was closed.`,
  (r) => `Case reference 0${r.digits(3)} ${r.digits(4)} ${r.digits(4)}.`,
  // timestamps
  (r) => `created_at: 17${r.digits(11)}`,
  (r) => `ts=${r.pick(['16', '17'])}${r.digits(8)} level=info msg="cache warm"`,
  (r) => {
    const month = String(r.int(1, 12)).padStart(2, '0');
    return `at 2024-${month}-${r.int(10, 28)}T${r.int(10, 23)}:${r.int(10, 59)}:${r.int(10, 59)}.${r.digits(3)}Z`;
  },
  (r) => `Batch 2024${String(r.int(1, 12)).padStart(2, '0')}${r.int(10, 28)}${r.digits(6)} finished.`,
  (r) => `Meeting moved to ${r.int(10, 28)}/0${r.int(1, 9)}/2025 at ${r.int(9, 17)}:30.`,
  // UUIDs and digests
  (r) => `request_id: ${uuid(r)}`,
  (r) => `trace=${uuid(r).toUpperCase()} span=${hex(r, 16)}`,
  (r) => `commit ${hex(r, 40)}`,
  (r) => `sha256:${hex(r, 64)}`,
  // NHS-like and card-like runs that fail their checks
  (r) => {
    const d = nhsLikeInvalid(r);
    return `Reading ${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)} recorded.`;
  },
  (r) => {
    const d = nhsLikeInvalid(r);
    return `Case ${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)} escalated.`;
  },
  (r) => `Serial ${luhnInvalid16(r).replace(/(\d{4})(?=\d)/g, '$1 ')}`,
  (r) => `Gift code ${r.int(7, 9)}${r.digits(3)}-${r.digits(4)}-${r.digits(4)}-${r.digits(4)}`,
  (r) => `Transfer to GB00 WEST ${r.digits(4)} ${r.digits(4)} ${r.digits(4)} ${r.digits(2)} failed.`,
  (r) => `sort code ${r.digits(2)}-${r.digits(2)}-${r.digits(2)}, account ${r.digits(8)}`,
  // numbers and versions
  (r) => `Windows version 10.0.${r.int(19041, 22631)}.${r.int(100, 4000)}`,
  (r) => `Upgraded to v${r.int(1, 9)}.${r.int(0, 20)}.${r.int(0, 30)} and Python 3.${r.int(8, 12)}.${r.int(0, 9)}`,
  (r) => `server listening on 0.0.0.0:${r.int(1024, 9999)} and 127.0.0.1`,
  (r) => `netmask 255.255.${r.pick(['255.0', '0.0', '240.0'])}`,
  (r) => `Total £${r.int(1, 99)},${r.digits(3)}.${r.digits(2)} (€${r.int(1, 99)}.${r.digits(3)},${r.digits(2)})`,
  (r) => `The site had ${r.int(1, 9)} ${r.digits(3)} ${r.digits(3)} visitors in ${r.int(2015, 2024)}.`,
  (r) => `ISBN 978-${r.int(0, 1)}-${r.digits(3)}-${r.digits(5)}-${r.int(0, 9)}`,
  (r) => `coordinates ${r.int(50, 58)}.${r.digits(4)}, -${r.int(0, 5)}.${r.digits(4)}`,
  // postcode, NINO and IBAN look-alikes
  () => 'Print it on A4 paper and take the M25 motorway.',
  () => 'CO2 levels in room E12 3rd floor are fine; it is a B2B product.',
  () => 'Use QQ123456C as the placeholder NI number in the form.',
  (r) => `Product code TN${r.digits(6)}A and part AB${r.digits(6)}.`,
  (r) => `Room ${r.int(100, 999)}, ext ${r.digits(4)}; flight BA ${r.digits(4)} departs ${r.int(10, 23)}:30.`,
  (r) => `Logged 2024-0${r.int(1, 9)}-${r.int(10, 28)} ${r.int(10, 23)}:${r.int(10, 59)}:${r.int(10, 59)} by cron.`,
  (r) => {
    const rows = `${r.int(1, 9)},${r.digits(3)},${r.digits(3)},${r.digits(3)}`;
    return `Interest of ${r.int(1, 9)}.${r.digits(2)}% on £${r.int(1, 99)},${r.digits(3)}.00 and ${rows} rows.`;
  },
  (r) => `Shift ${r.int(10, 12)}:${r.int(10, 59)} - ${r.int(13, 18)}:${r.int(10, 59)}, call NHS 111 if unwell.`,
  (r) => `iface fe80::${hex(r, 4)}%eth0 and ::1 are local.`,
  // code
  (r) => `const id = ${r.int(1, 9)}${r.digits(9)}; // from the orders table`,
  (r) => `SELECT * FROM events WHERE created_ms > 17${r.digits(11)} LIMIT 100;`,
  () => 'std::vector<int> v; auto x = ns::Foo::bar(a::b);',
  (r) => `color: #${hex(r, 6)}; margin: 0 ${r.int(1, 20)}px;`,
  (r) => `ether ${[0, 1, 2, 3, 4, 5].map(() => hex(r, 2)).join(':')} mtu 1500`,
  (r) => `for (let i = 0; i < ${r.int(1000, 99999)}${r.digits(3)}; i++) total += i * ${r.int(3, 97)};`,
  (r) => `token: ${r.letters(36, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}`,
  (r) => `"order_id": ${r.int(1, 9)}${r.digits(12)}, "amount_pence": ${r.int(100, 99999)}`,
];

export function hardNegative(r: Prng): string {
  return r.pick(NEGATIVES)(r);
}
