package org.salgate.bench.workload;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.salgate.transport.ClientHandler;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.tls.TlsConfig;
import org.salgate.model.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.wire.StreamData;
import org.salgate.wire.StreamEnded;
import org.salgate.model.Value;

/**
 * A bench client straight on a {@link TransportClient}: the hello, request/response matching by id,
 * and stream frames handed to counters. Used at both levels, so every transport is driven by the
 * same thin client code and nothing of a client library's own cost is measured.
 */
public final class TransportChannel implements BenchChannel, ClientHandler {

    private final TransportClient client;
    private final int index;
    private final Duration timeout;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<Result>> pending = new ConcurrentHashMap<>();
    private final Map<Long, StreamCounter> streams = new ConcurrentHashMap<>();
    private final CompletableFuture<HelloReply> hello = new CompletableFuture<>();

    private TransportChannel(TransportClient client, int index, Duration timeout) {
        this.client = client;
        this.index = index;
        this.timeout = timeout;
    }

    /**
     * Connects and completes the hello.
     *
     * @param index this client's number, which picks its sensor at agent level
     * @throws IOException if the server cannot be reached or refuses the hello
     */
    public static TransportChannel connect(TransportProvider provider, int port, int index, Duration timeout)
            throws IOException {
        return connect(provider, port, index, timeout, null);
    }

    /** As {@link #connect(TransportProvider, int, int, Duration)}, over TLS when {@code tls} is set. */
    public static TransportChannel connect(TransportProvider provider, int port, int index, Duration timeout,
                                           TlsConfig tls) throws IOException {
        TransportClient client = provider.createClient(ClientOptions.builder().host("127.0.0.1").port(port)
                .connectTimeout(timeout).tls(tls).build());
        TransportChannel channel = new TransportChannel(client, index, timeout);
        client.connect(channel);
        try {
            client.send(Hello.of("protobuf", "bench-" + index));
            HelloReply reply = channel.hello.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!reply.accepted()) {
                throw new IOException("the server refused the hello: " + reply.error());
            }
            return channel;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.close();
            throw new IOException("interrupted during the hello");
        } catch (ExecutionException | TimeoutException | IOException e) {
            client.close();
            throw e instanceof IOException io ? io : new IOException("no hello reply from the server: " + e, e);
        }
    }

    /**
     * Sends one call and waits for its answer.
     *
     * @throws java.util.concurrent.TimeoutException if no answer came within the timeout
     * @throws ExecutionException if the connection closed first
     */
    public Result request(Call call) throws Exception {
        long id = ids.incrementAndGet();
        CompletableFuture<Result> f = new CompletableFuture<>();
        pending.put(id, f);
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            client.send(new Request(id, call));
            return f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } finally {
            pending.remove(id);
        }
    }

    @Override
    public void call(Payload payload) throws Exception {
        Result r = request(payload.call());
        if (!payload.accepts(r)) {
            throw new IOException("unexpected answer to " + payload.name() + ": " + describe(r));
        }
    }

    @Override
    public PreparedStream prepareStream(StreamSpec spec, StreamCounter counter) throws Exception {
        Result setup = request(spec.setup(index));
        if (!(setup instanceof Result.StreamHandle h)) {
            throw new IOException("stream " + spec.name() + " was refused: " + describe(setup));
        }
        long id = h.streamId();
        streams.put(id, counter);
        return () -> start(id, spec, counter);
    }

    private Subscription start(long id, StreamSpec spec, StreamCounter counter) throws Exception {
        Result start = request(new Call.StartStream(id));
        if (start instanceof Result.Failure) {
            streams.remove(id);
            throw new IOException("stream " + spec.name() + " did not start: " + describe(start));
        }
        return () -> {
            try {
                Result stop = request(new Call.StopStream(id));
                if (stop instanceof Result.Failure) {
                    throw new IOException("stream " + id + " did not stop: " + describe(stop));
                }
                if (stop instanceof Result.StreamStopped s) {
                    counter.stopped(s.counts());
                }
            } finally {
                streams.remove(id);
            }
        };
    }

    private static String describe(Result r) {
        return r instanceof Result.Failure f ? f.code() + " " + f.message() : r.getClass().getSimpleName();
    }

    @Override
    public void messageReceived(Message message) {
        if (message instanceof Response r) {
            CompletableFuture<Result> f = pending.get(r.id());
            if (f != null) {
                f.complete(r.result());
            }
        } else if (message instanceof StreamData d) {
            StreamCounter c = streams.get(d.streamId());
            if (c != null) {
                c.onMessage(d.reading().sequence(), size(d.reading().value()));
            }
        } else if (message instanceof HelloReply h) {
            hello.complete(h);
        } else if (message instanceof StreamEnded e) {
            StreamCounter c = streams.remove(e.streamId());
            if (c != null) {
                c.endedByServer(e.reason().isEmpty() ? "no reason given" : e.reason());
            }
        }
    }

    private static int size(Value v) {
        if (v instanceof Value.Bytes b) {
            return b.value().length;
        } else if (v instanceof Value.Text t) {
            return t.value().length();
        }
        return 8;
    }

    /** Whether the connection is still open (the server has not closed it, nor has this side). */
    public boolean isOpen() {
        return client.isOpen();
    }

    @Override
    public void closed(Throwable cause) {
        IOException e = new IOException("the connection closed" + (cause == null ? "" : ": " + cause));
        hello.completeExceptionally(e);
        pending.values().forEach(f -> f.completeExceptionally(e));
    }

    @Override
    public void close() {
        client.close();
    }
}
