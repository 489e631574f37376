/**
 * An OpenAI-compatible chat completions endpoint (a local Ollama, vLLM, llama.cpp server), asked
 * for a JSON object. Used locally when TIDEWELL_AI_BASE_URL and TIDEWELL_AI_MODEL are set; it sends
 * the transcript only to the endpoint the practice configured.
 */
export class OpenAiCompatible {
  constructor(
    private readonly baseUrl: string,
    readonly model: string,
    private readonly apiKey?: string,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async json<T>(system: string, prompt: string): Promise<T> {
    const res = await this.fetchFn(`${this.baseUrl.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) },
      body: JSON.stringify({
        model: this.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: prompt },
        ],
      }),
    });
    if (!res.ok)
      throw Object.assign(new Error(`The AI endpoint answered ${res.status}`), {
        name: res.status === 429 || res.status >= 500 ? 'AiEndpointBusy' : 'AiEndpointRefused',
      });
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const content = body.choices?.[0]?.message?.content ?? '';
    const start = content.indexOf('{');
    const end = content.lastIndexOf('}');
    if (start < 0 || end < start) throw Object.assign(new Error('The AI endpoint did not answer with JSON'), { name: 'AiEndpointBadAnswer' });
    return JSON.parse(content.slice(start, end + 1)) as T;
  }
}
