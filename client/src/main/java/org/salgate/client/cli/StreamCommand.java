package org.salgate.client.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.salgate.client.Counts;
import org.salgate.client.SalClient;
import org.salgate.client.SensorStream;
import org.salgate.client.StreamListener;
import org.salgate.model.Reading;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

@Command(name = "stream", description = {"Print a command's readings live until Ctrl-C or --count readings.",
        "One line per reading, with its sequence number; the stream is stopped cleanly either way.",
        "Exits with 1 when the agent ends the stream first."})
final class StreamCommand extends BaseCommand {

    @Mixin
    CommandCall call;

    @Mixin
    OutputOption output;

    @Option(names = "--interval", paramLabel = "<duration>", converter = IntervalConverter.class,
            description = "Time between readings, such as 100ms or 2s; a bare number is milliseconds, 0 as often as"
                    + " the agent reads (default: ${DEFAULT-VALUE} ms).")
    long intervalMs = 1000;

    @Option(names = "--count", paramLabel = "<n>", description = "Stop after this many readings, 1 or more (default: until Ctrl-C).")
    Long count;

    @Option(names = "--policy", paramLabel = "<policy>", converter = PolicyConverter.class,
            description = "What the agent does when this client reads slower than the stream: block, drop-oldest "
            + "or disconnect (default: the agent's).")
    SlowConsumerPolicy policy;

    @Option(names = "--shared", description = {"Join the agent's one shared stream of this command, arguments and "
            + "interval, which it reads and encodes once for all its subscribers, instead of a stream of this "
            + "client's own.", "Sequence numbers are the shared stream's: the first need not be 0. "
            + "Needs an --interval above 0."})
    boolean shared;

    @Override
    void prepare() {
        if (count != null && count < 1) {
            throw new ParameterException(spec.commandLine(), "--count must be 1 or more, got " + count
                    + "; leave it out to stream until Ctrl-C");
        }
    }

    @Override
    int run(SalClient client) throws Exception {
        PrintWriter out = out();
        long count = this.count == null ? 0 : this.count;
        List<String> columns = Output.readingColumns(true);
        if (output.format() == OutputOption.Format.csv) {
            Output.csvHeader(out, columns);
        }
        CompletableFuture<Void> counted = new CompletableFuture<>();
        CompletableFuture<String> endedByAgent = new CompletableFuture<>();
        AtomicLong received = new AtomicLong();
        AtomicBoolean interrupted = new AtomicBoolean();
        StreamListener listener = new StreamListener() {
            @Override
            public void onReading(Reading reading) {
                long n = received.incrementAndGet();
                if (count > 0 && n > count) {
                    return;
                }
                switch (output.format()) {
                    case json -> Output.jsonLine(out, Output.reading(reading, true));
                    case csv -> Output.csvRecord(out, columns, Output.reading(reading, true));
                    case table -> {
                        out.println("#" + reading.sequence() + "  " + ReadingFormat.line(reading));
                        out.flush();
                    }
                }
                if (n == count) {
                    counted.complete(null);
                }
            }

            @Override
            public void onGap(long missed, long nextSequence) {
                out.println("# " + Counts.of(missed, "reading") + (shared ? " of the shared stream missed before #"
                        : " dropped by the agent before #") + nextSequence + " (this client was not reading)");
                out.flush();
            }

            @Override
            public void onEnded(String reason, StreamCounts counts) {
                printCounts(out, counts);
                endedByAgent.complete(reason);
            }
        };
        SensorStream stream = await(client.stream(call.sensor, call.command, call.args, intervalMs, policy, shared, listener));
        Interruptible onCtrlC = new Interruptible(() -> {
            interrupted.set(true);
            stopQuietly(stream);
        });
        try {
            CompletableFuture.anyOf(counted, endedByAgent).get();
        } finally {
            onCtrlC.close();
        }
        if (interrupted.get()) {
            return ExitCodes.OK; // the JVM is stopping; the hook stopped the stream
        }
        if (counted.isDone()) {
            await(stream.stop());
            return ExitCodes.OK;
        }
        err().println("the agent ended the stream: " + endedByAgent.getNow(""));
        return ExitCodes.FAILED;
    }

    /** The stream's counts, when a reading was lost: they say what the slow-consumer policy did. */
    private static void printCounts(PrintWriter out, StreamCounts counts) {
        if (counts.lostAny()) {
            out.println("# delivered " + counts.delivered() + ", skipped " + counts.skipped() + ", dropped "
                    + counts.dropped() + " (readings lost while this client was not reading)");
            out.flush();
        }
    }

    private void stopQuietly(SensorStream stream) {
        try {
            stream.stop().get(root.connection.timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            // stopping anyway: the agent ends the stream when the connection closes
        }
    }

    @Override
    ErrorMessages.Subject subject() {
        return call.subject();
    }

    /** Reads a policy by its name. */
    static final class PolicyConverter implements picocli.CommandLine.ITypeConverter<SlowConsumerPolicy> {
        @Override
        public SlowConsumerPolicy convert(String value) {
            return SlowConsumerPolicy.parse(value);
        }
    }
}
