package org.salgate.client.cli;

import java.io.PrintWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.salgate.client.ConnectionClosedException;
import org.salgate.client.SalClient;
import org.salgate.wire.Event;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

@Command(name = "events", description = "Print the agent's events live until Ctrl-C or --count events.")
final class EventsCommand extends BaseCommand {

    @Option(names = "--count", paramLabel = "<n>", description = "Stop after this many events (default: until Ctrl-C).")
    long count;

    @Override
    void prepare() {
        if (count < 0) {
            throw new ParameterException(spec.commandLine(), "--count must not be negative, got " + count);
        }
    }

    @Override
    int run(SalClient client) throws Exception {
        PrintWriter out = out();
        CompletableFuture<Void> counted = new CompletableFuture<>();
        AtomicLong received = new AtomicLong();
        AutoCloseable subscription = await(client.subscribeEvents(event -> {
            long n = received.incrementAndGet();
            if (count > 0 && n > count) {
                return;
            }
            out.println(line(event));
            out.flush();
            if (n == count) {
                counted.complete(null);
            }
        }));
        Interruptible onCtrlC = new Interruptible(() -> closeQuietly(subscription));
        try {
            CompletableFuture.anyOf(counted, client.closeFuture()).get();
        } finally {
            onCtrlC.close();
        }
        if (!counted.isDone()) {
            throw new ConnectionClosedException("connection to agent at " + root.connection.address() + " closed", null);
        }
        subscription.close();
        return ExitCodes.OK;
    }

    static String line(Event e) {
        StringBuilder b = new StringBuilder(ReadingFormat.timestamp(e.timestampMicros()))
                .append("  ").append(e.type()).append("  ").append(e.subject());
        if (e.state() != null) {
            b.append("  ").append(e.state());
        }
        if (!e.detail().isEmpty()) {
            b.append("  ").append(e.detail());
        }
        return b.toString();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // stopping anyway
        }
    }
}
