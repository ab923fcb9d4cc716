// OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG (docs/operations.md, "Traces"):
// tracing is off unless the endpoint is set; a bad value is refused in one line, an endpoint's
// password never shown.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('tracing settings', () => {
  it('off by default, even with the other OTEL_ settings set', () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_SERVICE_NAME: 'trips', OTEL_TRACES_SAMPLER_ARG: '0.5' }).tracing).toBeNull();
  });

  it('on with an endpoint: service name and sample ratio default to trip-itinerary and 1', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'trip-itinerary',
      sampleRatio: 1,
    });
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.com/', OTEL_SERVICE_NAME: 'trips-eu', OTEL_TRACES_SAMPLER_ARG: '0.05' }).tracing,
    ).toEqual({ endpoint: 'https://otlp.example.com/', serviceName: 'trips-eu', sampleRatio: 0.05 });
  });

  it('refuses an endpoint that is no http(s) URL, without showing its password', () => {
    for (const raw of ['collector:4318', 'grpc://collector:4317', 'localhost']) {
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: raw }), raw).toThrow(ConfigError);
    }
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://user:hunter2@collector' })).toThrow(
      /^OTEL_EXPORTER_OTLP_ENDPOINT="ftp:\/\/user:\*\*\*@collector\/?" is not accepted; expected an http:\/\/ or https:\/\/ URL\.$/,
    );
  });

  it('refuses a sample ratio outside 0..1', () => {
    for (const raw of ['2', '-0.1', '1.5', 'half', '10%', '0.1.2']) {
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_SAMPLER_ARG: raw }), raw).toThrow(
        /^OTEL_TRACES_SAMPLER_ARG=".*" is not accepted; expected a decimal number from 0 to 1/,
      );
    }
  });
});
