import { Prng } from '../support/prng.js';
import { LabelledTextBuilder } from './labelled-text.js';
import { hex, uuid } from './negative-generators.js';
import type { LabelledText } from './labelled-text.js';
import * as v from './value-generators.js';

// Agent-style prompts of 20 KB and more, the way a coding agent fills its context: tool schemas, source code,
// infrastructure code, logs, stack traces and git history. They are full of what looks like personal data and is
// none (versions, user agents, CIDR ranges, services' addresses and ports, hashes, UUIDs, timestamps, identifiers
// named after people), and carry a little that is: clients' addresses in an access log, a host let through a
// firewall, a commit author's name and email, a customer's details in the user's request.

export const AGENT_PROMPT_MIN_BYTES = 20 * 1024;

type Block = (r: Prng, b: LabelledTextBuilder) => void;

const iso = (r: Prng): string =>
  `2026-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}T${String(r.int(0, 23)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}.${r.digits(3)}Z`;
const version = (r: Prng): string => `${r.int(0, 20)}.${r.int(0, 40)}.${r.int(0, 200)}`;
const privateIp = (r: Prng): string => r.pick([`10.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`, `192.168.${r.int(0, 255)}.${r.int(1, 254)}`, `172.${r.int(16, 31)}.${r.int(0, 255)}.${r.int(1, 254)}`]);
const UAS = [
  (r: Prng): string => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${r.int(110, 131)}.0.${r.int(5000, 6999)}.${r.int(10, 200)} Safari/537.36`,
  (r: Prng): string => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${r.int(0, 6)} Safari/605.1.15`,
  (r: Prng): string => `Mozilla/5.0 (X11; Linux x86_64; rv:${r.int(110, 133)}.0) Gecko/20100101 Firefox/${r.int(110, 133)}.0`,
  (r: Prng): string => `okhttp/${version(r)}`,
  (r: Prng): string => `python-requests/2.${r.int(20, 32)}.${r.int(0, 9)}`,
];
const PEOPLE = ['Siobhan O\'Brien', 'Jakub Nowak', 'Camille Martin', 'Lukas Schmidt', 'Giulia Rossi', 'Sanne de Vries', 'Pablo García'];

const BLOCKS: readonly Block[] = [
  // Tool schemas.
  (r, b) => {
    const tool = r.pick(['send_email', 'lookup_customer', 'create_invoice', 'read_file', 'run_query', 'update_ticket']);
    b.add(`{"name":"${tool}","description":"${r.pick(['Sends a message to a customer', 'Finds a customer by email or phone', 'Creates an invoice for an order', 'Reads a file from the workspace'])}. Use it only when the user asks.","input_schema":{"type":"object","properties":{"customer_email":{"type":"string","format":"email","description":"The customer's email address, e.g. as stored in the CRM"},"phone":{"type":"string","pattern":"^\\\\+?[0-9 ]{7,15}$"},"full_name":{"type":"string","maxLength":120},"iban":{"type":"string","description":"International Bank Account Number"},"amount":{"type":"number","minimum":0},"currency":{"type":"string","enum":["GBP","EUR","PLN"]},"id":{"type":"string","format":"uuid","example":"${uuid(r)}"}},"required":["customer_email"]}}\n`);
  },
  // TypeScript source.
  (r, b) => {
    b.add(`import { Thomas, Victoria } from './people/${r.pick(['Thomas', 'Victoria', 'Adrian'])}';
import express from 'express'; // express@${version(r)}
const PORT = ${r.pick([3000, 8080, 8443, 9090])};
const TIMEOUT_MS = ${r.int(100, 90000)};
export class InvoiceRenderer {
  constructor(private readonly grace: number, private readonly martin = new Victoria()) {}
  render(customer: Customer): string {
    // Customer.fullName and Customer.email are rendered by the template; never log them.
    const total = customer.lines.reduce((sum, l) => sum + l.amount, 0).toFixed(2);
    return \`Invoice \${customer.id} (\${new Date().toISOString()}): \${total} EUR, build ${version(r)}.${r.int(0, 9999)}\`;
  }
}
app.listen(PORT, '0.0.0.0', () => logger.info({ port: PORT, node: process.version }, 'listening'));
`);
  },
  // Terraform.
  (r, b) => {
    b.add(`resource "aws_vpc" "main" {
  cidr_block           = "10.${r.int(0, 255)}.0.0/16"
  enable_dns_hostnames = true
}
resource "aws_subnet" "private_${r.int(1, 9)}" {
  vpc_id            = aws_vpc.main.id
  cidr_block        = "10.${r.int(0, 255)}.${r.int(0, 255)}.0/24"
  availability_zone = "eu-west-${r.int(1, 3)}${r.pick(['a', 'b', 'c'])}"
}
resource "aws_security_group_rule" "https" {
  type        = "ingress"
  from_port   = 443
  to_port     = 443
  cidr_blocks = ["0.0.0.0/0", "172.16.0.0/12"]
}
# provider hashicorp/aws ${version(r)}, terraform >= 1.${r.int(3, 9)}.0, ami-${hex(r, 17)}
`);
    // A /32 is one host: an administrator's machine let through the firewall.
    b.add('admin_cidr = "');
    b.value('IP_ADDRESS', privateIp(r));
    b.add('/32"\n');
  },
  // Access log: the client's address, public or on the office network, points at a person's machine; the
  // upstream's, with its port, at a service.
  (r, b) => {
    for (let i = r.int(3, 8); i > 0; i--) {
      b.add(`${iso(r)} ${r.pick(['GET', 'POST', 'PUT'])} /api/v${r.int(1, 3)}/orders/${uuid(r)} ${r.pick([200, 201, 304, 404, 502])} ${r.int(1, 900)}ms client=`);
      b.value('IP_ADDRESS', r.chance(0.5) ? v.ipv4Address(r) : privateIp(r));
      b.add(` upstream=${privateIp(r)}:${r.pick([80, 443, 3000, 5432, 6379, 8080, 8443, 9000, 9092, 27017])} ua="${r.pick(UAS)(r)}" trace=${hex(r, 32)}\n`);
    }
  },
  // Stack traces.
  (r, b) => {
    b.add(`Error: connect ECONNREFUSED ${privateIp(r)}:${r.pick([5432, 6379, 9092])}
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:${r.int(1000, 1700)}:${r.int(1, 20)})
    at InvoiceService.render (/app/src/billing/InvoiceService.ts:${r.int(1, 300)}:${r.int(1, 40)})
Caused by: java.lang.IllegalStateException: pool exhausted
	at com.acme.billing.Martin.run(Martin.java:${r.int(10, 400)})
	at org.springframework.boot.SpringApplication.run(SpringApplication.java:${r.int(100, 1400)}) ~[spring-boot-3.${r.int(0, 4)}.${r.int(0, 9)}.jar:3.${r.int(0, 4)}.${r.int(0, 9)}]
Traceback (most recent call last):
  File "/usr/lib/python3.11/site-packages/grace/worker.py", line ${r.int(10, 900)}, in handle
KeyError: 'customer_id' (request ${uuid(r)}, sha256:${hex(r, 64)})
`);
  },
  // Git history: the author's name and email are personal data.
  (r, b) => {
    const person = r.pick(PEOPLE);
    b.add(`commit ${hex(r, 40)}\nAuthor: `);
    b.value('PERSON', person);
    b.add(' <');
    b.value('EMAIL', `${person.split(' ')[0]?.toLowerCase().replace(/[^a-z]/g, '') ?? 'dev'}@acme.example`);
    b.add(`>\nDate:   Tue Nov ${r.int(1, 28)} ${r.int(0, 23)}:${r.int(10, 59)}:${r.int(10, 59)} 2026 +0000\n\n    ${r.pick(['Fix retry budget in Redis store', 'Bump undici to ' + version(r), 'Render invoices in the customer locale'])}\n\n`);
  },
  // Config and metrics.
  (r, b) => {
    b.add(`REDIS_URL=redis://${privateIp(r)}:6379/0
DATABASE_URL=postgres://app@db.internal:5432/app?sslmode=require
OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector:4318
IMAGE=registry.example.com/gateway@sha256:${hex(r, 64)}
NODE_VERSION=${r.int(18, 24)}.${r.int(0, 20)}.${r.int(0, 9)}
gateway_requests_total{region="eu-west-2",status="200"} ${r.int(1000, 999999)} ${Date.UTC(2026, 10, 25)}
http_request_duration_seconds_bucket{le="0.005"} ${r.int(1, 9999)}
`);
  },
  // The user's own request, with a customer's details in it.
  (r, b) => {
    b.add('User: please draft a reply to ');
    b.value('PERSON', r.pick(PEOPLE));
    b.add(' about order ');
    b.add(r.digits(8));
    b.add(' — she asked us to call her on ');
    b.value('PHONE', v.phone(r));
    b.add(' and to refund to ');
    b.value('IBAN', v.iban(r));
    b.add('.\n');
  },
];

/** `count` agent-style prompts of at least 20 KB each. */
export function generateAgentPrompts(seed: number, count: number): LabelledText[] {
  const r = new Prng(seed);
  const prompts: LabelledText[] = [];
  for (let i = 0; i < count; i++) {
    const b = new LabelledTextBuilder();
    b.add('You are a coding agent working in the repository of a billing service. Read before you edit; run the tests.\n');
    while (b.length < AGENT_PROMPT_MIN_BYTES + r.int(0, 12 * 1024)) {
      // The user's request and commits are rarer than code and logs.
      let block = r.pick(BLOCKS);
      if ((block === BLOCKS[5] || block === BLOCKS[7]) && r.chance(0.7)) block = r.pick(BLOCKS.slice(0, 5));
      block(r, b);
    }
    prompts.push(b.build());
  }
  return prompts;
}
