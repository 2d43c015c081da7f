package org.salgate.client.cli;

import java.io.PrintWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.salgate.client.ConnectionClosedException;
import org.salgate.client.SalClient;
import org.salgate.model.Event;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

@Command(name = "events", description = "Print the agent's events live until Ctrl-C or --count events.")
final class EventsCommand extends BaseCommand {

    @Option(names = "--count", paramLabel = "<n>", description = "Stop after this many events, 1 or more (default: until Ctrl-C).")
    Long count;

    @Mixin
    OutputOption output;

    @Override
    void prepare() {
        if (count != null && count < 1) {
            throw new ParameterException(spec.commandLine(), "--count must be 1 or more, got " + count
                    + "; leave it out to print events until Ctrl-C");
        }
    }

    @Override
    int run(SalClient client) throws Exception {
        PrintWriter out = out();
        long count = this.count == null ? 0 : this.count;
        if (output.format() == OutputOption.Format.csv) {
            Output.csvHeader(out, Output.EVENT_COLUMNS);
        }
        CompletableFuture<Void> counted = new CompletableFuture<>();
        AtomicLong received = new AtomicLong();
        AutoCloseable subscription = await(client.subscribeEvents(event -> {
            long n = received.incrementAndGet();
            if (count > 0 && n > count) {
                return;
            }
            switch (output.format()) {
                case json -> Output.jsonLine(out, Output.event(event));
                case csv -> Output.csvRecord(out, Output.EVENT_COLUMNS, Output.event(event));
                case table -> {
                    out.println(line(event));
                    out.flush();
                }
            }
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
