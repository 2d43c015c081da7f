package org.salgate.transport.grpc;

import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.netty.handler.codec.http2.Http2Exception;
import java.util.List;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.salgate.transport.RateLimitedLog;
import org.slf4j.LoggerFactory;

/**
 * What grpc-java's server logs about its peers, through this project's logging. grpc-java logs
 * through {@code java.util.logging}, a line and a stack trace for each connection that fails (an
 * HTTP/1 request, a port scanner, a bad preface: "Transport failed" at INFO) and each stream that
 * does (a reset stream, a message over the limit: "Stream Error", "Exception processing message" at
 * WARNING), so that a peer decides how much is logged. Those loggers' records go to SLF4J instead,
 * each with its stack trace, at DEBUG. A peer's errors are HTTP/2 or gRPC status exceptions; a record
 * at WARNING or above with any other exception (a fault of the server's own) is also logged as one
 * line without its stack trace, at WARN, at most once a second per logger and kind of exception
 * (see {@link RateLimitedLog}).
 *
 * <p>A program that set its own filter on one of these loggers keeps it.
 */
final class GrpcLogs {

    /** Held here as well: {@code java.util.logging} keeps its loggers, and their filters, only while referenced. */
    private static final List<Logger> PEER_LOGGERS = List.of(
            Logger.getLogger("io.grpc.netty.NettyServerTransport.connections"),
            Logger.getLogger("io.grpc.netty.NettyServerHandler"),
            Logger.getLogger("io.grpc.netty.NettyServerStream"));

    private static final RateLimitedLog WARNINGS = new RateLimitedLog(LoggerFactory.getLogger(GrpcLogs.class),
            org.slf4j.event.Level.WARN);
    private static final SimpleFormatter FORMAT = new SimpleFormatter();

    private GrpcLogs() {
    }

    /** Routes the peer loggers through SLF4J; idempotent. */
    static synchronized void install() {
        for (Logger logger : PEER_LOGGERS) {
            if (logger.getFilter() == null) {
                logger.setFilter(TO_SLF4J);
            }
        }
    }

    /** Whether {@code t} is what a peer's bad input, or its going away, makes gRPC or Netty's HTTP/2 codec throw. */
    static boolean peerCaused(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof Http2Exception || c instanceof StatusRuntimeException || c instanceof StatusException
                    || c instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    private static final Filter TO_SLF4J = record -> {
        String message = FORMAT.formatMessage(record);
        org.slf4j.Logger target = LoggerFactory.getLogger(record.getLoggerName());
        Throwable t = record.getThrown();
        if (record.getLevel().intValue() >= Level.WARNING.intValue() && t != null && !peerCaused(t)) {
            // keyed by logger and exception class: a message may carry a peer's header values
            String cause = record.getLoggerName() + " " + t.getClass().getName();
            WARNINGS.log(cause, "gRPC: {} ({})", message, t);
        }
        if (target.isDebugEnabled()) {
            target.debug(message, record.getThrown());
        }
        return false;
    };
}
