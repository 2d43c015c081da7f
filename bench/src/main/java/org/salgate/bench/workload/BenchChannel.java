package org.salgate.bench.workload;

/** One client's connection to the server under test, as the workloads use it. */
public interface BenchChannel extends AutoCloseable {

    /**
     * Makes one synchronous call and checks the answer.
     *
     * @throws Exception if the call failed, timed out, or the answer was wrong
     */
    void call(Payload payload) throws Exception;

    /**
     * Sets up (without starting) a stream whose messages will go to {@code counter}.
     *
     * @return how to start it
     * @throws Exception if the server refused or did not answer
     */
    PreparedStream prepareStream(StreamSpec spec, StreamCounter counter) throws Exception;

    @Override
    void close();

    /** A stream set up but not started, so that many clients can be set up before any data flows. */
    interface PreparedStream {
        /** Starts the stream; returns once the server confirmed. */
        Subscription start() throws Exception;
    }

    /** A running stream. */
    interface Subscription {
        /** Stops the stream; returns once the server confirmed (no message of it follows). */
        void stop() throws Exception;
    }
}
