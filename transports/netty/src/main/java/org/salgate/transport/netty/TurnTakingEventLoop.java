package org.salgate.transport.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import io.netty.util.internal.ThreadExecutorMap;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.salgate.transport.CallerTurns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event loop of one client connection, run by whichever thread holds its turn: a caller that
 * waits for an answer, or the connection's own thread.
 *
 * <p>A caller of a synchronous request that finds the turn free writes its request and reads its
 * answer on its own thread ({@link #runNowOrExecute}, {@link #runUntilDone}): the request and the
 * answer then cross no thread, as a blocking-socket client such as RMI's does not. The
 * connection's thread runs the loop the rest of the time: while nobody waits, and for any caller
 * that found the turn taken. While callers have the turn, and for
 * {@link CallerTurns#CALLER_TURN_NANOS} after a caller's turn, that thread stays away, looking in
 * at times that lengthen while callers keep reading, up to {@link CallerTurns#LONGEST_STAY_AWAY_NANOS},
 * so that back-to-back calls each find the turn free; a caller that waits meanwhile without the
 * turn gets it back at once. A frame the agent pushes while nobody waits is therefore read at most
 * that much later.
 *
 * <p>The I/O is Netty's own {@link IoHandler} (epoll or NIO). Netty runs such a handler on one
 * thread at a time but lets that thread change ({@link IoHandlerFactory#isChangingThreadSupported});
 * here the turn's lock orders the runs, and {@link #inEventLoop(Thread)} is true for the thread
 * that holds it, so that Netty writes and reads on that thread directly.
 */
public final class TurnTakingEventLoop extends AbstractScheduledEventExecutor implements IoEventLoop {

    private static final Logger LOG = LoggerFactory.getLogger(TurnTakingEventLoop.class);

    /**
     * The longest a caller waits for I/O in one go before it looks at its answer again, for an
     * answer that is no {@link CompletionStage} and so cannot end the wait when another thread
     * completes it.
     */
    private static final long LONGEST_CALLER_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final int RUNNING = 0;
    private static final int SHUTTING_DOWN = 1;
    private static final int TERMINATED = 2;

    private final IoHandler handler;
    /** Held by the thread that runs the loop; {@link #owner} is that thread while it does. */
    private final ReentrantLock turn = new ReentrantLock();
    private volatile Thread owner;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Thread driver;
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final Promise<Void> terminated = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    /** Who waits without the turn, and how long the connection's thread stays away after a caller's. */
    private final CallerTurns turns = new CallerTurns();
    /** How the handler may wait; guarded by {@link #turn}. */
    private final Waiting waiting = new Waiting();
    /** Guarded by {@link #turn}. */
    private boolean initialized;
    /** The answer the caller holding the turn waits for; null while no caller holds it. Guarded by {@link #turn}. */
    private java.util.concurrent.Future<?> callersAnswer;
    /** Deliveries kept for the next holder that may run them ({@link #deliverInOrder}); guarded by {@link #turn}. */
    private final ArrayDeque<Runnable> held = new ArrayDeque<>();
    /** Whether {@link #held} has deliveries, for threads without the turn. */
    private volatile boolean holding;
    /** Ends the wait for I/O of the thread running the loop, unless that is the calling thread. */
    private final java.util.function.BiConsumer<Object, Throwable> wakeIfWaiting;

    private TurnTakingEventLoop(IoHandlerFactory factory, String threadName) {
        if (!factory.isChangingThreadSupported()) {
            throw new IllegalArgumentException("this I/O handler must always run on one thread");
        }
        this.handler = factory.newHandler(this);
        this.wakeIfWaiting = (result, failure) -> {
            if (!inEventLoop()) {
                handler.wakeup();
            }
        };
        this.driver = new Thread(this::drive, threadName);
        this.driver.setDaemon(true);
    }

    /** A running loop on {@code factory}'s handler, whose own thread is called {@code threadName}. */
    static TurnTakingEventLoop start(IoHandlerFactory factory, String threadName) {
        TurnTakingEventLoop loop = new TurnTakingEventLoop(factory, threadName);
        loop.driver.start();
        return loop;
    }

    /**
     * Runs {@code task} on this thread now if the turn is free (after the tasks queued before it,
     * and followed by those it queued itself, such as the flush a library queues for a write), or
     * queues it as {@link #execute} does.
     */
    public void runNowOrExecute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (inEventLoop()) {
            task.run();
            return;
        }
        if (state.get() != RUNNING || !turn.tryLock()) {
            execute(task);
            return;
        }
        try {
            owner = Thread.currentThread();
            EventExecutor old = ThreadExecutorMap.setCurrentExecutor(this);
            try {
                initialize();
                runTasks();
                safeExecute(task);
                runQueuedTasks();
            } finally {
                ThreadExecutorMap.setCurrentExecutor(old);
                owner = null;
            }
        } finally {
            leaveTurn();
        }
    }

    /**
     * Runs the loop on the calling thread until {@code answer} is done or the deadline passes, if
     * the turn is free; otherwise notes that a caller waits, so that the connection's thread runs
     * the loop for it, and returns at once.
     */
    public void runUntilDone(java.util.concurrent.Future<?> answer, long deadlineNanos) {
        if (answer.isDone() || inEventLoop() || state.get() != RUNNING) {
            return;
        }
        turns.callerReads();
        if (!CallerTurns.takeSoon(turn)) {
            turns.waitsWithoutTurn(answer, deadlineNanos);
            LockSupport.unpark(driver); // the holder may have left before the put
            return;
        }
        try {
            owner = Thread.currentThread();
            callersAnswer = answer;
            // completed on another thread (by a stream's delivery, say): the wait for I/O ends then
            CallerTurns.wakeWhenDone(answer, wakeIfWaiting);
            EventExecutor old = ThreadExecutorMap.setCurrentExecutor(this);
            try {
                initialize();
                deliverHeld();
                while (!answer.isDone() && state.get() == RUNNING && !Thread.currentThread().isInterrupted()) {
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    runOnce(Math.min(left, LONGEST_CALLER_WAIT_NANOS));
                }
            } catch (RuntimeException e) {
                // the caller goes back to waiting on its future, and the connection's thread runs the loop
                LOG.warn("the event loop of a client connection failed on a caller's thread", e);
            } finally {
                ThreadExecutorMap.setCurrentExecutor(old);
                callersAnswer = null;
                owner = null;
            }
        } finally {
            turns.callerReads();
            leaveTurn();
        }
    }

    /**
     * Runs a delivery to the connection's handler, on the event loop, in order with the others: at
     * once if the thread holding the turn may deliver, else kept, with every delivery after it, for
     * the next holder that may. The connection's thread and a caller still waiting for its answer
     * may; a caller whose answer is in, and a sender, may not, so that neither is held up by a
     * handler (a stream's listener, say) busy with what came after its answer.
     */
    public void deliverInOrder(Runnable delivery) {
        if (!inEventLoop()) {
            throw new IllegalStateException("deliveries run on the event loop");
        }
        if (held.isEmpty() && mayDeliver()) {
            runDelivery(delivery);
            return;
        }
        held.add(delivery);
        holding = true;
    }

    /** Whether the thread holding the turn may run deliveries now. */
    private boolean mayDeliver() {
        java.util.concurrent.Future<?> answer = callersAnswer;
        return owner == driver || (answer != null && !answer.isDone());
    }

    /** Runs the deliveries kept, in order, while this holder of the turn may. */
    private void deliverHeld() {
        Runnable delivery;
        while (mayDeliver() && (delivery = held.poll()) != null) {
            runDelivery(delivery);
        }
        holding = !held.isEmpty();
    }

    private static void runDelivery(Runnable delivery) {
        try {
            delivery.run();
        } catch (RuntimeException e) {
            LOG.warn("the client handler failed", e);
        }
    }

    /**
     * Gives the turn back, and wakes the connection's thread if it has work now: held deliveries,
     * tasks, a caller waiting without the turn, the end.
     */
    private void leaveTurn() {
        turn.unlock();
        if (holding || state.get() != RUNNING || !tasks.isEmpty() || turns.someoneWaitsWithoutTurn()) {
            LockSupport.unpark(driver);
        }
    }

    /**
     * The connection's thread: runs the loop whenever no caller does, then shuts it down. For
     * reading alone it looks in on {@link CallerTurns}' timer; for held deliveries, tasks, a caller
     * waiting without the turn and the end, whoever gives the turn back wakes it.
     */
    private void drive() {
        while (state.get() == RUNNING) {
            if (!holding && tasks.isEmpty() && !turns.someoneWaitsWithoutTurn()) {
                long stay = turns.ownThreadStaysAwayNanos(turn.isLocked());
                if (stay > 0) {
                    LockSupport.parkNanos(this, stay);
                    continue;
                }
            }
            if (!turn.tryLock()) {
                // a caller runs the loop; it wakes this thread as it leaves if work is left for it
                LockSupport.parkNanos(this, turns.ownThreadStaysAwayNanos(true));
                continue;
            }
            try {
                owner = Thread.currentThread();
                ThreadExecutorMap.setCurrentExecutor(this);
                initialize();
                deliverHeld();
                runOnce(Long.MAX_VALUE);
            } catch (Throwable t) {
                LOG.warn("the event loop of a client connection failed; it goes on", t);
            } finally {
                owner = null;
                turn.unlock();
            }
        }
        turn.lock();
        try {
            owner = Thread.currentThread();
            ThreadExecutorMap.setCurrentExecutor(this);
            initialize();
            destroy();
            deliverHeld();
        } finally {
            owner = null;
            turn.unlock();
            state.set(TERMINATED);
            terminated.setSuccess(null);
        }
    }

    private void initialize() {
        if (!initialized) {
            initialized = true;
            handler.initialize();
        }
    }

    /** One pass: I/O (waiting up to {@code maxWaitNanos} for some if no task is due), then the due tasks. */
    private void runOnce(long maxWaitNanos) {
        waiting.maxNanos = maxWaitNanos;
        handler.run(waiting);
        runTasks();
    }

    /** Runs the queued tasks and the scheduled ones that are due; with the turn held. */
    private void runTasks() {
        fetchFromScheduledTaskQueue(tasks);
        Runnable task;
        while ((task = tasks.poll()) != null) {
            safeExecute(task);
        }
    }

    /**
     * Runs the tasks queued now, not those they queue in turn (a drain that reschedules itself to
     * stay fair, say), which are left to the next holder; with the turn held.
     */
    private void runQueuedTasks() {
        for (int queued = tasks.size(); queued > 0; queued--) {
            Runnable task = tasks.poll();
            if (task == null) {
                return;
            }
            safeExecute(task);
        }
    }

    /** Closes the channels, then runs what that queued, and frees the handler; with the turn held. */
    private void destroy() {
        cancelScheduledTasks();
        runTasks();
        handler.prepareToDestroy();
        runTasks();
        try {
            handler.destroy();
        } finally {
            runTasks();
        }
    }

    @Override
    public boolean inEventLoop(Thread thread) {
        return owner == thread;
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (state.get() == TERMINATED) {
            throw new RejectedExecutionException("the event loop of this connection has stopped");
        }
        tasks.add(task);
        if (!inEventLoop()) {
            handler.wakeup(); // the thread holding the turn, if it waits for I/O
            LockSupport.unpark(driver); // the connection's thread, if it stays away
        }
    }

    @Override
    public IoEventLoop next() {
        return this;
    }

    @Override
    public IoEventLoopGroup parent() {
        return null;
    }

    @Override
    public ChannelFuture register(Channel channel) {
        return register(new DefaultChannelPromise(channel, this));
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        promise.channel().unsafe().register(this, promise);
        return promise;
    }

    @Override
    @Deprecated
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        channel.unsafe().register(this, promise);
        return promise;
    }

    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        Promise<IoRegistration> promise = newPromise();
        Runnable registering = () -> {
            try {
                promise.setSuccess(handler.register(handle));
            } catch (Exception e) {
                promise.setFailure(e);
            }
        };
        if (inEventLoop()) {
            registering.run();
        } else {
            execute(registering);
        }
        return promise;
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return handler.isCompatible(handleType);
    }

    @Override
    public boolean isIoType(Class<? extends IoHandler> handlerType) {
        return handler.getClass().equals(handlerType);
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        if (state.compareAndSet(RUNNING, SHUTTING_DOWN)) {
            handler.wakeup();
            LockSupport.unpark(driver);
        }
        return terminated;
    }

    @Override
    @Deprecated
    public void shutdown() {
        shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public Future<?> terminationFuture() {
        return terminated;
    }

    @Override
    public boolean isShuttingDown() {
        return state.get() != RUNNING;
    }

    @Override
    public boolean isShutdown() {
        return state.get() != RUNNING;
    }

    @Override
    public boolean isTerminated() {
        return state.get() == TERMINATED;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    /** How long the handler may wait for I/O: not while a task is due, nor past the next scheduled one. */
    private final class Waiting implements IoHandlerContext {
        long maxNanos = Long.MAX_VALUE;

        @Override
        public boolean canBlock() {
            return tasks.isEmpty() && !hasScheduledTasks() && state.get() == RUNNING;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return Math.min(maxNanos, TurnTakingEventLoop.this.delayNanos(currentTimeNanos, maxNanos));
        }

        @Override
        public long deadlineNanos() {
            long next = nextScheduledTaskDeadlineNanos();
            if (maxNanos == Long.MAX_VALUE) {
                return next;
            }
            long now = ticker().nanoTime();
            return next == -1 || next - now > maxNanos ? now + maxNanos : next;
        }
    }
}
