// A realistic Messages request body carrying PII in every place privacy modes must reach, plus places
// they must not touch (an image, a base64 document, a thinking block). A block type the gateway does not know
// (search_result) and a system-role message are scanned like any other text.

export const IMAGE_DATA = 'iVBORw0KGgo4111111111111111jane.doe@example.com';

export function requestBody(): Record<string, unknown> {
  return {
    model: 'alpha-sonnet-4-6',
    max_tokens: 1024,
    system: [{ type: 'text', text: 'You help Acme support. Escalate to ops@acme.co.uk.' }],
    messages: [
      { role: 'user', content: 'Hi, I am Jane (jane.doe@example.com, 07700 900123). My NHS number is 943 476 5919.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'User gave jane.doe@example.com', signature: 'sig' },
          { type: 'text', text: 'Thanks Jane. Could you confirm your postcode?' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Postcode SW1A 1AA. Email again: jane.doe@example.com' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: IMAGE_DATA } },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: 'Card 4111 1111 1111 1111, IBAN GB82 WEST 1234 5698 7654 32',
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: [
              { type: 'text', text: 'Last login from 81.2.69.160' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: IMAGE_DATA } },
            ],
          },
          {
            type: 'document',
            title: 'HR record',
            source: { type: 'text', media_type: 'text/plain', data: 'NI number AB123456C' },
          },
          { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'Desk: 020 7946 0958' }] } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: IMAGE_DATA } },
          { type: 'search_result', source: 'https://x.example', title: 'x', content: [{ type: 'text', text: 'jane.doe@example.com' }] },
        ],
      },
      { role: 'system', content: 'Mid-conversation instruction: escalate to desk 020 7946 0000 if needed.' },
    ],
  };
}

export const EXPECTED_COUNTS = {
  EMAIL: 4,
  PERSON: 2,
  PHONE: 3,
  UK_NHS: 1,
  UK_POSTCODE: 1,
  CARD: 1,
  IBAN: 1,
  IP_ADDRESS: 1,
  UK_NINO: 1,
};
