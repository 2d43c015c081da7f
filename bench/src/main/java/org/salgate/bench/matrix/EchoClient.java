package org.salgate.bench.matrix;

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
import org.salgate.wire.Call;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.wire.Result;
import org.salgate.wire.Value;

/**
 * One connection to the object-echo server on a raw {@link TransportClient}: the hello, then
 * {@link #echo} sends a {@code Request(Call.Echo(Value.Bytes))} and waits for the response with its
 * id. The connection's message codec is salgate's default (protobuf), a thin frame around the bytes.
 */
final class EchoClient implements ClientHandler, AutoCloseable {

    private final TransportClient client;
    private final Duration timeout;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<Result>> pending = new ConcurrentHashMap<>();
    private final CompletableFuture<HelloReply> hello = new CompletableFuture<>();

    private EchoClient(TransportClient client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    /**
     * Connects to 127.0.0.1:{@code port} and completes the hello.
     *
     * @throws IOException if the server cannot be reached or refuses the hello
     */
    static EchoClient connect(TransportProvider provider, int port, Duration timeout) throws IOException {
        TransportClient client = provider.createClient(ClientOptions.builder().host("127.0.0.1").port(port)
                .connectTimeout(timeout).build());
        EchoClient c = new EchoClient(client, timeout);
        client.connect(c);
        try {
            client.send(Hello.of("protobuf", "bench-matrix"));
            HelloReply reply = c.hello.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!reply.accepted()) {
                throw new IOException("the server refused the hello: " + reply.error());
            }
            return c;
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
     * Echoes {@code envelope} and returns the server's envelope.
     *
     * @throws IOException if the server answered with a failure or something other than bytes, or
     *     the connection closed
     * @throws TimeoutException if no answer came within the timeout
     */
    byte[] echo(byte[] envelope) throws IOException, InterruptedException, TimeoutException {
        long id = ids.incrementAndGet();
        CompletableFuture<Result> f = new CompletableFuture<>();
        pending.put(id, f);
        Result r;
        try {
            client.send(new Request(id, new Call.Echo(new Value.Bytes(envelope))));
            r = f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } finally {
            pending.remove(id);
        }
        if (r instanceof Result.Echoed e && e.payload() instanceof Value.Bytes b) {
            return b.value();
        }
        throw new IOException("the server answered the echo with " + (r instanceof Result.Failure x
                ? x.code() + ": " + x.message() : r.getClass().getSimpleName()));
    }

    @Override
    public void messageReceived(Message message) {
        if (message instanceof Response r) {
            CompletableFuture<Result> f = pending.get(r.id());
            if (f != null) {
                f.complete(r.result());
            }
        } else if (message instanceof HelloReply h) {
            hello.complete(h);
        }
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
