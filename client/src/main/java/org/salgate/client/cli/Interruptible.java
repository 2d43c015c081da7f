package org.salgate.client.cli;

/**
 * Runs a cleanup when the JVM is asked to stop (Ctrl-C) while a live command waits, and forgets it
 * when the command ends by itself.
 */
final class Interruptible implements AutoCloseable {

    private final Thread hook;

    Interruptible(Runnable cleanup) {
        this.hook = new Thread(cleanup, "salgate-client-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is stopping: the hook is running or has run
        }
    }
}
