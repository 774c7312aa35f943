// A fake model server on 127.0.0.1 (ephemeral port) speaking the wire formats the agents use:
// Anthropic Messages, OpenAI Responses, OpenAI chat completions and Gemini, each with SSE. It
// plays a scenario's Script and logs every request; side requests (titles, classifiers) are
// answered apart and never consume the script.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerLimit } from './limit-reply';
import type { Reply, ToolCall } from './script';
import { Script } from './script';

export type Wire = 'anthropic' | 'responses' | 'chat' | 'gemini';

export interface LoggedRequest {
  at: number;
  method: string;
  path: string;
  wire: Wire | null;
  /** A main request consumed a reply; a side one (a title, a classifier) did not. */
  role: 'main' | 'side' | 'other';
  reply: Reply['kind'] | null;
  body: unknown;
}

interface Held {
  finish: () => void;
  closed: boolean;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export class FakeModel {
  readonly requests: LoggedRequest[] = [];
  private readonly holds: Held[] = [];
  private server = createServer((req, res) => void this.handle(req, res));
  private counter = 0;
  port = 0;

  constructor(public script: Script = new Script()) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Main requests so far (turns and their retries). */
  get mainRequests(): LoggedRequest[] {
    return this.requests.filter((request) => request.role === 'main');
  }

  /** Ends every held stream with a normal finish. */
  release(): void {
    for (const held of this.holds.splice(0)) if (!held.closed) held.finish();
  }

  /** Held streams still open (a client that went away closes its own). */
  get openHolds(): number {
    return this.holds.filter((held) => !held.closed).length;
  }

  private nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}_lab_${this.counter}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = text;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const log = (wire: Wire | null, role: LoggedRequest['role'], reply: Reply['kind'] | null): void => {
      this.requests.push({ at: Date.now(), method: req.method ?? 'GET', path, wire, role, reply, body });
    };
    const payload = isObject(body) ? body : {};
    if (req.method === 'GET') {
      log(null, 'other', null);
      return json(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'lab' }], models: [] });
    }
    if (path.endsWith('/messages/count_tokens')) {
      log('anthropic', 'other', null);
      return json(res, 200, { input_tokens: 12 });
    }
    if (path.endsWith('/messages')) {
      if (payload.stream !== true) {
        log('anthropic', 'side', 'text');
        return json(res, 200, anthropicMessage(this.nextId('msg'), String(payload.model ?? 'fake-model'), 'Lab title'));
      }
      const reply = this.script.next();
      log('anthropic', 'main', reply.kind);
      return this.play('anthropic', reply, res, payload);
    }
    if (path.endsWith('/responses')) {
      if (isTitleRequest(payload)) {
        log('responses', 'side', 'text');
        return this.play('responses', { kind: 'text', text: 'Lab task title' }, res, payload);
      }
      const reply = this.script.next();
      log('responses', 'main', reply.kind);
      return this.play('responses', reply, res, payload);
    }
    if (path.endsWith('/chat/completions')) {
      const tools = Array.isArray(payload.tools) ? payload.tools : [];
      if (tools.length === 0) {
        log('chat', 'side', 'text');
        const side: Reply = { kind: 'text', text: 'Lab session' };
        return payload.stream === true ? this.play('chat', side, res, payload) : json(res, 200, chatMessage(this.nextId('chatcmpl'), 'Lab session'));
      }
      const reply = this.script.next();
      log('chat', 'main', reply.kind);
      return this.play('chat', reply, res, payload);
    }
    if (path.includes(':generateContent')) {
      log('gemini', 'side', 'text');
      return json(res, 200, geminiChunk([{ text: '{"reasoning":"lab","model_choice":"flash"}' }], 'STOP'));
    }
    if (path.includes(':streamGenerateContent')) {
      const reply = this.script.next();
      log('gemini', 'main', reply.kind);
      return this.play('gemini', reply, res, payload);
    }
    log(null, 'other', null);
    json(res, 404, { error: { message: `the lab's model has no ${path}` } });
  }

  private play(wire: Wire, reply: Reply, res: ServerResponse, request: Json): void {
    const model = String(request.model ?? 'fake-model');
    switch (reply.kind) {
      case 'error':
        return json(
          res,
          reply.status,
          reply.quota === undefined ? errorBody(wire, reply.status, reply.message, reply.code) : quotaBody(wire, reply.status, reply.message, reply.quota),
          reply.headers,
        );
      case 'limit':
        return answerLimit(res, wire, reply);
      case 'quota':
        return json(res, 429, limitBody(wire, reply.message), { 'retry-after': String(reply.retryAfter) });
      case 'text':
      case 'tool': {
        const stream = new SseStream(res, wire, model, this.nextId('msg'));
        stream.begin();
        if (reply.kind === 'text' || reply.text !== undefined) stream.text(reply.kind === 'text' ? reply.text : (reply.text ?? ''));
        if (reply.kind === 'tool') stream.tool(reply.call, this.nextId(wire === 'anthropic' ? 'toolu' : 'call'));
        stream.finish(reply.kind === 'tool');
        return;
      }
      case 'hold': {
        const stream = new SseStream(res, wire, model, this.nextId('msg'));
        stream.begin();
        stream.text(reply.text);
        // Keep-alives while held: agents give up on a stream that says nothing for a while.
        const beat = setInterval(() => stream.keepAlive(), 2_000);
        const held: Held = {
          closed: false,
          finish: () => {
            clearInterval(beat);
            stream.finish(false);
          },
        };
        res.on('close', () => {
          clearInterval(beat);
          held.closed = true;
        });
        this.holds.push(held);
        return;
      }
      case 'cut': {
        const stream = new SseStream(res, wire, model, this.nextId('msg'));
        stream.begin();
        stream.text(reply.text);
        // Written, then the socket dropped with no end of message.
        setImmediate(() => res.socket?.destroy());
        return;
      }
    }
  }
}

function isTitleRequest(payload: Json): boolean {
  const tools = Array.isArray(payload.tools) ? payload.tools : [];
  return tools.length === 0 && JSON.stringify(payload.input ?? '').includes('Generate a concise');
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function errorBody(wire: Wire, status: number, message: string, code?: string): unknown {
  switch (wire) {
    case 'anthropic':
      return { type: 'error', error: { type: code ?? (status === 529 ? 'overloaded_error' : status === 429 ? 'rate_limit_error' : 'api_error'), message } };
    case 'gemini':
      return { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } };
    case 'responses':
    case 'chat':
      return { error: { message, type: code ?? (status === 429 ? 'rate_limit_exceeded' : 'server_error'), code: code ?? null } };
  }
}

/** A spent quota as each API says it (Google's details are what Gemini CLI classifies by). */
function quotaBody(wire: Wire, status: number, message: string, quota: { perDay: boolean; retryDelay?: string }): unknown {
  if (wire !== 'gemini') return { error: { message, type: 'insufficient_quota', code: 'insufficient_quota', param: null } };
  const quotaId = quota.perDay ? 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' : 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier';
  const details: Json[] = [
    {
      '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
      violations: [
        {
          quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
          quotaId,
          quotaDimensions: { location: 'global', model: 'fake-model' },
          quotaValue: '250',
        },
      ],
    },
    {
      '@type': 'type.googleapis.com/google.rpc.Help',
      links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }],
    },
  ];
  if (quota.retryDelay !== undefined) details.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: quota.retryDelay });
  return { error: { code: status, message, status: 'RESOURCE_EXHAUSTED', details } };
}

/** A quota/usage-limit error as each provider spells it (Anthropic's rate_limit_error, OpenAI's insufficient_quota, Gemini's RESOURCE_EXHAUSTED). */
function limitBody(wire: Wire, message: string): unknown {
  switch (wire) {
    case 'anthropic':
      return { type: 'error', error: { type: 'rate_limit_error', message } };
    case 'gemini':
      return {
        error: {
          code: 429,
          message,
          status: 'RESOURCE_EXHAUSTED',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
              violations: [{ quotaMetric: 'generate_content_requests', quotaId: 'GenerateRequestsPerDayPerProjectPerModel' }],
            },
          ],
        },
      };
    case 'responses':
    case 'chat':
      return { error: { message, type: 'insufficient_quota', code: 'insufficient_quota' } };
  }
}

function anthropicMessage(id: string, model: string, text: string): unknown {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 3 },
  };
}

function chatMessage(id: string, text: string): unknown {
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
  };
}

function geminiChunk(parts: unknown[], finishReason: string | null): Json {
  const candidate: Json = { content: { role: 'model', parts }, index: 0 };
  if (finishReason !== null) candidate.finishReason = finishReason;
  return { candidates: [candidate], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 }, modelVersion: 'fake-model' };
}

const usage = {
  input_tokens: 10,
  output_tokens: 3,
  total_tokens: 13,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

/** One streamed reply in one wire format: begin, text and tool parts, finish. */
class SseStream {
  private index = 0;
  private readonly output: Json[] = [];
  private textSoFar = '';

  constructor(
    private readonly res: ServerResponse,
    private readonly wire: Wire,
    private readonly model: string,
    private readonly id: string,
  ) {}

  private send(event: string | null, data: unknown): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    this.res.write(`${event === null ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  /** A ping the wire format allows mid-stream (Anthropic's ping event, an SSE comment elsewhere). */
  keepAlive(): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (this.wire === 'anthropic') this.send('ping', { type: 'ping' });
    else this.res.write(': keep-alive\n\n');
  }

  begin(): void {
    this.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    switch (this.wire) {
      case 'anthropic':
        this.send('message_start', {
          type: 'message_start',
          message: {
            id: this.id,
            type: 'message',
            role: 'assistant',
            model: this.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        });
        return;
      case 'responses':
        this.send('response.created', {
          type: 'response.created',
          response: { id: this.id, object: 'response', status: 'in_progress', model: this.model, output: [] },
        });
        this.send('response.in_progress', {
          type: 'response.in_progress',
          response: { id: this.id, object: 'response', status: 'in_progress', model: this.model, output: [] },
        });
        return;
      case 'chat':
      case 'gemini':
        return;
    }
  }

  text(text: string): void {
    this.textSoFar += text;
    switch (this.wire) {
      case 'anthropic':
        this.send('content_block_start', { type: 'content_block_start', index: this.index, content_block: { type: 'text', text: '' } });
        this.send('content_block_delta', { type: 'content_block_delta', index: this.index, delta: { type: 'text_delta', text } });
        return;
      case 'responses': {
        const itemId = `${this.id}_text`;
        this.send('response.output_item.added', {
          type: 'response.output_item.added',
          output_index: this.index,
          item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] },
        });
        this.send('response.content_part.added', {
          type: 'response.content_part.added',
          item_id: itemId,
          output_index: this.index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        });
        this.send('response.output_text.delta', {
          type: 'response.output_text.delta',
          item_id: itemId,
          output_index: this.index,
          content_index: 0,
          delta: text,
        });
        return;
      }
      case 'chat':
        this.send(null, this.chatChunk({ role: 'assistant', content: text }, null));
        return;
      case 'gemini':
        this.send(null, geminiChunk([{ text }], null));
        return;
    }
  }

  /** Closes an open text part (Anthropic blocks and Responses items are closed one by one). */
  private closeText(): void {
    if (this.textSoFar === '') return;
    switch (this.wire) {
      case 'anthropic':
        this.send('content_block_stop', { type: 'content_block_stop', index: this.index });
        break;
      case 'responses': {
        const item = {
          type: 'message',
          id: `${this.id}_text`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: this.textSoFar, annotations: [] }],
        };
        this.send('response.output_text.done', {
          type: 'response.output_text.done',
          item_id: item.id,
          output_index: this.index,
          content_index: 0,
          text: this.textSoFar,
        });
        this.send('response.output_item.done', { type: 'response.output_item.done', output_index: this.index, item });
        this.output.push(item);
        break;
      }
      case 'chat':
      case 'gemini':
        break;
    }
    this.index += 1;
    this.textSoFar = '';
  }

  tool(call: ToolCall, callId: string): void {
    this.closeText();
    const args = JSON.stringify(call.input);
    switch (this.wire) {
      case 'anthropic':
        this.send('content_block_start', {
          type: 'content_block_start',
          index: this.index,
          content_block: { type: 'tool_use', id: callId, name: call.name, input: {} },
        });
        this.send('content_block_delta', { type: 'content_block_delta', index: this.index, delta: { type: 'input_json_delta', partial_json: args } });
        this.send('content_block_stop', { type: 'content_block_stop', index: this.index });
        break;
      case 'responses': {
        const item = {
          type: 'function_call',
          id: `fc_${callId}`,
          call_id: callId,
          name: call.name,
          arguments: args,
          status: 'completed',
          ...(call.namespace === undefined ? {} : { namespace: call.namespace }),
        };
        this.send('response.output_item.added', {
          type: 'response.output_item.added',
          output_index: this.index,
          item: { ...item, arguments: '', status: 'in_progress' },
        });
        this.send('response.function_call_arguments.delta', {
          type: 'response.function_call_arguments.delta',
          item_id: item.id,
          output_index: this.index,
          delta: args,
        });
        this.send('response.function_call_arguments.done', {
          type: 'response.function_call_arguments.done',
          item_id: item.id,
          output_index: this.index,
          arguments: args,
        });
        this.send('response.output_item.done', { type: 'response.output_item.done', output_index: this.index, item });
        this.output.push(item);
        break;
      }
      case 'chat':
        this.send(
          null,
          this.chatChunk({ role: 'assistant', tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: call.name, arguments: args } }] }, null),
        );
        break;
      case 'gemini':
        this.send(null, geminiChunk([{ functionCall: { name: call.name, args: call.input } }], null));
        break;
    }
    this.index += 1;
  }

  finish(toolUse: boolean): void {
    this.closeText();
    switch (this.wire) {
      case 'anthropic':
        this.send('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null },
          usage: { output_tokens: 3 },
        });
        this.send('message_stop', { type: 'message_stop' });
        break;
      case 'responses':
        this.send('response.completed', {
          type: 'response.completed',
          response: { id: this.id, object: 'response', status: 'completed', model: this.model, output: this.output, usage },
        });
        break;
      case 'chat':
        this.send(null, this.chatChunk({}, toolUse ? 'tool_calls' : 'stop'));
        this.send(null, {
          id: this.id,
          object: 'chat.completion.chunk',
          created: Math.floor(Date.now() / 1000),
          model: this.model,
          choices: [],
          usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
        });
        this.send(null, '[DONE]');
        break;
      case 'gemini':
        this.send(null, geminiChunk([{ text: '' }], 'STOP'));
        break;
    }
    this.res.end();
  }

  private chatChunk(delta: Json, finish: string | null): Json {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    };
  }
}
