package org.salgate.transport.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandler;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Netty's HTTP request decoder on a connection that is not read by itself (auto-read off): it
 * decodes one message at a time ({@link #setSingleDecode}) and reads the socket only when a read is
 * asked for (the {@link RequestHandler} ready for the next request, the aggregator for more of a
 * body; see {@link #reads}) and what it holds is no whole message. A flood of pipelined requests thus waits as bytes
 * in the socket, not as thousands of decoded messages.
 *
 * <p>It also times requests: a request's first byte arms the header timer, its headers the body
 * timer; either firing answers 408 and closes. Between requests the header time bounds an idle
 * keep-alive connection, closed without an answer.
 *
 * <p>It refuses a request from its headers, before its body is read: undecodable (400, 414, 431),
 * ambiguous framing (a {@code Transfer-Encoding} other than one {@code chunked}; no or two
 * {@code Host}s), an unknown version (505), all closing the connection; or refused by the
 * {@link HttpDoor} (origin, host, token). A {@link RequestHandler.Refusal} goes on in its place,
 * answered in order; with an unread body or an upgrade the connection closes after it.
 *
 * <p>A body over the limit is answered 413 (an announced one before it is read) and closes. Each
 * part of a body it decodes is copied to a buffer of its size (its own parts are slices that
 * keep a whole read's buffer) and counted against the connection's memory, given back once the
 * request is answered; a part the budget cannot hold is answered 503 and closes. On the event loop only.
 */
final class RequestDecoder extends HttpRequestDecoder {

    private static final Logger LOG = LoggerFactory.getLogger(RequestDecoder.class);

    private enum State { IDLE, HEADERS, BODY, BUSY, DONE }

    private final HttpLimits limits;
    private final ConnectionMemory memory;
    private final HttpDoor door;
    private ChannelHandlerContext ctx;
    private State state = State.IDLE;
    private ScheduledFuture<?> timer;
    /** In a decode now: a read asked for meanwhile waits for it to end. */
    private boolean decoding;
    private boolean readWanted;
    private boolean produced;
    /** The rest of a refused request is dropped, and with {@link #closing} all that comes after it. */
    private boolean dropping;
    /** A request was refused and the connection closes. */
    private boolean closing;
    /** Bytes of the body under way so far. */
    private long bodyBytes;

    RequestDecoder(HttpLimits limits, ConnectionMemory memory, HttpDoor door) {
        super(limits.decoderConfig());
        this.limits = limits;
        this.memory = memory;
        this.door = door;
        setSingleDecode(true);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        enter(State.IDLE);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (state == State.IDLE && msg instanceof ByteBuf bytes && bytes.isReadable()) {
            enter(State.HEADERS);
        }
        decoding = true;
        try {
            super.channelRead(ctx, msg);
        } finally {
            decoding = false;
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        decoding = true;
        try {
            super.channelReadComplete(ctx);
        } finally {
            decoding = false;
        }
        if (readWanted) {
            read(ctx);
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        int before = out.size();
        super.decode(ctx, buffer, out);
        for (int i = before; i < out.size(); i++) {
            HttpObject msg = (HttpObject) out.get(i);
            produced = true;
            if (msg instanceof HttpRequest && state != State.DONE) {
                enter(State.BODY);
            }
            if (msg instanceof LastHttpContent && state == State.BODY) {
                enter(State.BUSY);
            }
            Object passed = screen(msg);
            if (passed == null) {
                out.remove(i--);
            } else {
                out.set(i, passed);
            }
        }
    }

    /**
     * What goes on in place of a decoded part: the part (a body's in a buffer of its own), a
     * {@link RequestHandler.Refusal} of its request, or nothing (the part is dropped).
     */
    private Object screen(HttpObject msg) {
        boolean last = msg instanceof LastHttpContent;
        if (dropping) {
            dropping = closing || !last;
            ReferenceCountUtil.release(msg);
            return null;
        }
        if (msg.decoderResult().isFailure()) {
            ReferenceCountUtil.release(msg);
            Throwable cause = msg.decoderResult().cause();
            LOG.debug("closing HTTP connection {}: undecodable request: {}", ctx.channel().remoteAddress(), cause.toString());
            return refusal(decoderRefusal(cause), true, true);
        }
        if (msg instanceof HttpRequest request) {
            FullHttpResponse refusal = framingRefusal(request);
            boolean framing = refusal != null;
            if (framing) {
                LOG.debug("closing HTTP connection {}: {}", ctx.channel().remoteAddress(),
                        refusal.content().toString(StandardCharsets.UTF_8));
            } else {
                refusal = door.refusal(request, ctx.channel());
            }
            if (refusal == null && HttpUtil.getContentLength(request, 0L) > limits.maxBodyBytes()) {
                refusal = tooLarge(); // before the body is read
            }
            if (refusal == null) {
                bodyBytes = 0;
                return msg;
            }
            // A refused WebSocket handshake closes too: its client meant to stop speaking HTTP.
            boolean close = framing || Exchange.hasBody(request) || !HttpUtil.isKeepAlive(request)
                    || request.headers().contains(HttpHeaderNames.UPGRADE);
            ReferenceCountUtil.release(msg);
            return refusal(Replies.forMethod(refusal, request.method()), close, last);
        }
        HttpContent content = (HttpContent) msg;
        int n = content.content().readableBytes();
        bodyBytes += n;
        if (bodyBytes > limits.maxBodyBytes() || !memory.take(n)) {
            content.release();
            return refusal(bodyBytes > limits.maxBodyBytes() ? tooLarge() : memory.overloaded("send the request again later"),
                    true, last);
        }
        return compact(content);
    }

    /** A refusal answered in order; the rest of its request is dropped, and with {@code close} all after it. */
    private RequestHandler.Refusal refusal(FullHttpResponse answer, boolean close, boolean last) {
        closing = close;
        dropping = close || !last;
        return new RequestHandler.Refusal(answer, close);
    }

    /** The part in a buffer of its own size. */
    private static HttpContent compact(HttpContent content) {
        ByteBuf bytes = content.content();
        if (!bytes.isReadable()) {
            return content;
        }
        ByteBuf copy = bytes.alloc().buffer(bytes.readableBytes());
        copy.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
        HttpContent compacted = content.replace(copy); // a last part keeps its trailers
        content.release();
        return compacted;
    }

    private static FullHttpResponse decoderRefusal(Throwable cause) {
        if (cause instanceof TooLongHttpHeaderException) {
            return Replies.error(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "HEADERS_TOO_LARGE",
                    "the request's headers are larger than this agent accepts: " + cause.getMessage());
        }
        if (cause instanceof TooLongHttpLineException) {
            return Replies.error(HttpResponseStatus.REQUEST_URI_TOO_LONG, "URI_TOO_LONG",
                    "the request line is longer than this agent accepts: " + cause.getMessage());
        }
        return Replies.error(HttpResponseStatus.BAD_REQUEST, "MALFORMED_HTTP",
                "the request is not valid HTTP/1.1: " + cause.getMessage());
    }

    /** Framing a proxy in front of the agent could read differently (request smuggling), or an unknown version. */
    private static FullHttpResponse framingRefusal(HttpRequest request) {
        HttpVersion version = request.protocolVersion();
        if (version.majorVersion() != 1 || version.minorVersion() > 1) {
            return Replies.error(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, "HTTP_VERSION_NOT_SUPPORTED",
                    "this agent speaks HTTP/1.1 (and 1.0), not " + version.text());
        }
        List<String> encodings = request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (encodings.size() > 1 || encodings.size() == 1
                && !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(encodings.get(0).trim())) {
            return Replies.error(HttpResponseStatus.BAD_REQUEST, "MALFORMED_HTTP",
                    "a request's Transfer-Encoding must be one header 'chunked', got " + encodings);
        }
        List<String> hosts = request.headers().getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1 || hosts.isEmpty() && version.minorVersion() == 1) {
            return Replies.error(HttpResponseStatus.BAD_REQUEST, "MALFORMED_HTTP",
                    "an HTTP/1.1 request must have exactly one Host header, it has " + hosts.size());
        }
        return null;
    }

    private FullHttpResponse tooLarge() {
        return Replies.error(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "TOO_LARGE",
                "the request body is larger than this agent's limit of " + limits.maxBodyBytes() + " bytes");
    }

    /** The handler right after this decoder that hands it the reads the handlers after it ask for. */
    ChannelOutboundHandler reads() {
        return new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext from) throws Exception {
                RequestDecoder.this.read(from);
            }
        };
    }

    /**
     * A read asked for by a handler after this one ({@code from}, the handler of {@link #reads}): a message
     * decoded from what this decoder holds, or else a read of the socket. Asked for by the request
     * handler, it starts the wait for the next request.
     */
    void read(ChannelHandlerContext from) throws Exception {
        if (ctx.isRemoved()) { // the WebSocket's decoder took this one's place
            if (from.channel().isWritable()) {
                from.read(); // else reading resumes with the writability (auto-read): see WebSocketIntake
            }
            return;
        }
        if (state == State.BUSY) {
            enter(actualReadableBytes() > 0 ? State.HEADERS : State.IDLE);
        }
        readWanted = true;
        if (decoding) {
            return; // once the decode under way is over
        }
        decoding = true;
        try {
            while (readWanted && !ctx.isRemoved() && ctx.channel().isActive()) {
                readWanted = false;
                if (actualReadableBytes() == 0) {
                    ctx.read();
                    break;
                }
                produced = false;
                super.channelRead(ctx, Unpooled.EMPTY_BUFFER);
                boolean whole = produced;
                super.channelReadComplete(ctx); // which reads the socket when no message was whole
                if (!whole) {
                    readWanted = false;
                }
            }
        } finally {
            decoding = false;
        }
    }

    /** Whether it holds bytes not decoded yet: the start of a request sent before the last one was answered. */
    boolean holdsBytes() {
        return actualReadableBytes() > 0;
    }

    /** The connection is a WebSocket or an event stream from now on, or it is closing: no more timers. */
    void upgraded() {
        enter(State.DONE);
    }

    /** Enters {@code next} and starts its timer: the header time while idle or before the headers, the body time for a body. */
    private void enter(State next) {
        state = next;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        if (next != State.BUSY && next != State.DONE && ctx != null && ctx.channel().isActive()) {
            long millis = next == State.BODY ? limits.bodyTimeoutMillis() : limits.headerTimeoutMillis();
            timer = ctx.executor().schedule(this::expired, millis, TimeUnit.MILLISECONDS);
        }
    }

    private void expired() {
        timer = null;
        State expired = state;
        state = State.DONE;
        if (expired == State.IDLE) {
            ctx.close();
            return;
        }
        boolean headers = expired == State.HEADERS;
        String option = headers ? HttpTransportProvider.HEADER_TIMEOUT_MILLIS : HttpTransportProvider.BODY_TIMEOUT_MILLIS;
        long millis = headers ? limits.headerTimeoutMillis() : limits.bodyTimeoutMillis();
        String part = headers ? "headers" : "body";
        HttpTransportServer.PEER_LOG.log(part + "-timeout", "closing the HTTP connection from {}: its request {} "
                + "did not arrive within {} ms ({})", ctx.channel().remoteAddress(), part, millis, option);
        Replies.sendAndClose(ctx.channel(), Replies.error(HttpResponseStatus.REQUEST_TIMEOUT, "REQUEST_TIMEOUT",
                "the request's " + part + " did not arrive within " + millis + " ms"));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        enter(State.DONE);
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        enter(State.DONE); // the WebSocket's decoder took this one's place
        super.handlerRemoved0(ctx);
    }
}
