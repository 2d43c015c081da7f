package org.salgate.transport.rmi;

import java.util.concurrent.TimeUnit;

/**
 * A remote call waiting for the agent's answer. Either the answer completes it in time, or the
 * caller gives up first and the answer is pushed instead; whichever happens first wins.
 */
final class PendingCall {

    private static final byte[] NO_ANSWER = new byte[0];

    private boolean done;
    private boolean gaveUp;
    private long sequence;
    private byte[] frame;

    /** Hands over the answer; false when the caller gave up, so the answer must be pushed. */
    synchronized boolean complete(long sequence, byte[] frame) {
        if (done || gaveUp) {
            return false;
        }
        this.done = true;
        this.sequence = sequence;
        this.frame = frame;
        notifyAll();
        return true;
    }

    /** The session closed: the caller returns without an answer. */
    synchronized void cancel() {
        if (!done) {
            gaveUp = true;
            notifyAll();
        }
    }

    /**
     * Waits for the answer.
     *
     * @return the sequence number then the frame, or an empty array when there was none in time
     */
    byte[] await(long millis) {
        long sequenceNumber;
        byte[] answer;
        synchronized (this) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (!done && !gaveUp) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    gaveUp = true;
                    return NO_ANSWER;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    if (!done) {
                        gaveUp = true; // an answer now gets pushed, so no sequence number is lost
                    }
                    break;
                }
            }
            if (!done) {
                return NO_ANSWER;
            }
            sequenceNumber = sequence;
            answer = frame;
        }
        byte[] reply = new byte[Long.BYTES + answer.length];
        for (int i = 0; i < Long.BYTES; i++) {
            reply[i] = (byte) (sequenceNumber >>> (56 - 8 * i));
        }
        System.arraycopy(answer, 0, reply, Long.BYTES, answer.length);
        return reply;
    }
}
