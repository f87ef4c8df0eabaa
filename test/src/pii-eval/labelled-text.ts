import type { PiiType } from '@gateway/privacy';

/** A gold span in an evaluation corpus; `end` is exclusive. */
export interface GoldSpan {
  type: PiiType;
  start: number;
  end: number;
}

export interface LabelledText {
  text: string;
  spans: GoldSpan[];
}

/** Builds a text piece by piece, recording the offsets of the labelled values. */
export class LabelledTextBuilder {
  private text = '';
  private readonly spans: GoldSpan[] = [];

  add(plain: string): this {
    this.text += plain;
    return this;
  }

  value(type: PiiType, value: string): this {
    this.spans.push({ type, start: this.text.length, end: this.text.length + value.length });
    this.text += value;
    return this;
  }

  get length(): number {
    return this.text.length;
  }

  build(): LabelledText {
    return { text: this.text, spans: [...this.spans] };
  }
}
