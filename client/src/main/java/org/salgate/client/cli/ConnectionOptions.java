package org.salgate.client.cli;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import org.salgate.client.SalClient;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Transports;
import org.salgate.wire.Codecs;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** How to reach the agent: options given before or after the subcommand. */
final class ConnectionOptions {

    @Option(names = "--transport", paramLabel = "<name>", scope = ScopeType.INHERIT,
            description = "The transport (default: ${DEFAULT-VALUE}; $SALGATE_TRANSPORT sets it);"
                    + " --list-transports shows those available.")
    String transport = Transports.DEFAULT;

    @Option(names = "--host", paramLabel = "<host>", scope = ScopeType.INHERIT,
            description = "The agent's host (default: ${DEFAULT-VALUE}; $SALGATE_HOST sets it).")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "<port>", scope = ScopeType.INHERIT, converter = PortConverter.class,
            description = "The agent's port (default: ${DEFAULT-VALUE}; $SALGATE_PORT sets it).")
    int port = SalClient.DEFAULT_PORT;

    @Option(names = "--codec", paramLabel = "<name>", scope = ScopeType.INHERIT,
            description = "The codec after the hello (default: ${DEFAULT-VALUE}; $SALGATE_CODEC sets it).")
    String codec = Codecs.DEFAULT;

    @Option(names = "--timeout", paramLabel = "<duration>", scope = ScopeType.INHERIT,
            converter = DurationConverter.class,
            description = "How long to wait to connect and for each answer, such as 10s or 500ms (default: 10s).")
    Duration timeout = Duration.ofSeconds(10);

    @Mixin
    TlsOptions tls;

    @Mixin
    TokenOptions auth = new TokenOptions();

    @Option(names = "--write-high-water-bytes", paramLabel = "<n>", scope = ScopeType.INHERIT,
            description = "Queued request bytes above which the connection counts as full (default: ${DEFAULT-VALUE}).")
    int writeHighWaterBytes = ServerOptions.DEFAULT_WRITE_HIGH_WATER_BYTES;

    @Option(names = "--write-low-water-bytes", paramLabel = "<n>", scope = ScopeType.INHERIT,
            description = "Queued request bytes below which it takes more again (default: ${DEFAULT-VALUE}).")
    int writeLowWaterBytes = ServerOptions.DEFAULT_WRITE_LOW_WATER_BYTES;

    @Option(names = "--max-queued-bytes", paramLabel = "<n>", scope = ScopeType.INHERIT,
            description = "Most request bytes queued before a request fails at once "
            + "(default: 0, the high-water mark plus four of the largest frames).")
    long maxQueuedBytes;

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "Print stack traces and library logs on errors.")
    boolean verbose;

    /** Where the defaults of the options came from; set by {@link ClientMain}. */
    Environment environment = new Environment(Map.of());

    /** Where the agent is, as {@code host:port}, for messages. */
    String address() {
        return host + ":" + port;
    }

    /** Connects, or throws {@link CannotConnectException}; an unknown transport or codec is an IllegalArgumentException. */
    SalClient connect() {
        environment.checkKnown("--transport", transport, Transports.available().keySet(), "transport");
        environment.checkKnown("--codec", codec, Codecs.available().keySet(), "codec");
        try {
            return SalClient.builder()
                    .transport(transport).host(host).port(port).codec(codec)
                    .clientName("salgate-client-cli").token(auth.token())
                    .connectTimeout(timeout).requestTimeout(timeout)
                    .tls(tls.config())
                    .writeWaterMarks(writeLowWaterBytes, writeHighWaterBytes).maxQueuedBytes(maxQueuedBytes)
                    .connect();
        } catch (IOException e) {
            throw new CannotConnectException(e.getMessage(), e);
        }
    }
}
