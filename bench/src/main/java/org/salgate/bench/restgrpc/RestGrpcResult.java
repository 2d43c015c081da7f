package org.salgate.bench.restgrpc;

import java.time.Instant;
import java.util.List;

/**
 * What {@code bench rest-grpc} measured.
 *
 * @param latencies one per API, operation and repetition
 * @param bytes one per API and operation
 * @param connections one per API: the bytes of opening the connection and its first list call
 * @param sizes one per API and operation: what the answer held (see {@link ApiClient#call})
 */
public record RestGrpcResult(RestGrpcConfig config, List<Latency> latencies, List<Bytes> bytes,
                             List<Connection> connections, List<Size> sizes, List<String> errors, Instant started,
                             Instant finished) {

    /** The two APIs. */
    public enum Api {
        REST("REST/JSON", "HTTP/1.1 keep-alive, java.net.http.HttpClient, Jackson"),
        GRPC("gRPC", "HTTP/2, the Sal service's generated blocking stub, protobuf");

        private final String title;
        private final String how;

        Api(String title, String how) {
            this.title = title;
            this.how = how;
        }

        public String title() {
            return title;
        }

        public String how() {
            return how;
        }

        /** The agent transport that serves it. */
        public String transport() {
            return this == REST ? "http" : "grpc";
        }
    }

    /** One timed repetition; times in microseconds. */
    public record Latency(Api api, Operation op, int rep, long calls, double mean, double p50, double p90, double p99,
                          double max) {}

    /** Bytes per call on the wire (TCP payload), averaged over {@code calls} calls. */
    public record Bytes(Api api, Operation op, long calls, double request, double response) {}

    /** The bytes from connecting to the end of the first call (a sensor list). */
    public record Connection(Api api, long up, long down) {}

    /** What an API's answer to an operation held. */
    public record Size(Api api, Operation op, int size) {}
}
