package org.salgate.transport.http.rest;

import org.salgate.transport.http.Exchange;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509KeyManager;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * What a web service on a user's machine must refuse from the browsers there, whose pages any web
 * site can script: a request for a host it does not serve (421: a DNS-rebinding page that names its
 * own domain), a WebSocket handshake or a state-changing request (POST, PUT, PATCH, DELETE) from
 * another origin's page (403), and such a request with a body that a page can send cross-site
 * without asking first, anything but JSON or XML (415). A request without an {@code Origin} header
 * comes from a program, not a page, and is not checked for it. No answer carries a CORS header: no
 * other origin's page is let in by asking first.
 *
 * <p>The hosts served are the loopback names when bound to loopback or a wildcard, the name it was
 * bound by, the address a connection reached, the names and addresses of the TLS certificate, and
 * {@value HttpTransportProvider#ALLOW_HOSTS}. The server's own origin is its scheme, a host it
 * serves and its port; others are allowed by {@value HttpTransportProvider#ALLOW_ORIGINS}.
 * Immutable and thread-safe.
 */
final class BrowserRules {

    private static final Set<HttpMethod> SAFE_METHODS = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS,
            HttpMethod.TRACE);
    /** An authority, lower-cased: its host (a bracketed IPv6 address, or a name less its trailing dot), its port. */
    private static final String AUTHORITY = "(\\[[^\\]]+]|[a-z0-9_.-]*[a-z0-9_-])\\.?(?::([0-9]{0,5}))?";
    private static final Pattern HOST = Pattern.compile(AUTHORITY);
    /** A web origin, lower-cased: a scheme and an authority, and nothing after them but a slash. */
    private static final Pattern ORIGIN = Pattern.compile("(https?)://" + AUTHORITY + "/?");

    private final String scheme;
    /** The host names and addresses served, and wildcard names ({@code *.example.com}) as they are. */
    private final Set<String> hosts = new HashSet<>();
    private final Set<Origin> origins = new HashSet<>();

    /**
     * The rules of a server with these options.
     *
     * @throws IllegalArgumentException when a host or an origin of the properties is malformed, naming it
     */
    BrowserRules(ServerOptions options) {
        scheme = options.tls() != null ? "https" : "http";
        boolean anyAddress = false;
        try {
            InetAddress address = InetAddress.getByName(options.host());
            anyAddress = address.isAnyLocalAddress();
            if (anyAddress || address.isLoopbackAddress()) {
                hosts.addAll(List.of("localhost", "127.0.0.1", "::1"));
            }
        } catch (UnknownHostException e) {
            // binding fails and says so
        }
        if (!anyAddress) {
            serve(options.host()); // the name it was bound by; its address is the one connections reach
        }
        if (options.tls() != null) {
            serveCertificateNames(options.tls());
        }
        for (String name : list(options.properties().get(HttpTransportProvider.ALLOW_HOSTS))) {
            if (!serve(name)) {
                throw new IllegalArgumentException(HttpTransportProvider.ALLOW_HOSTS + ": '" + name
                        + "' is not a host name or address (such as gateway.example or 192.0.2.7)");
            }
        }
        for (String value : list(options.properties().get(HttpTransportProvider.ALLOW_ORIGINS))) {
            Origin origin = Origin.parse(value);
            if (origin == null) {
                throw new IllegalArgumentException(HttpTransportProvider.ALLOW_ORIGINS + ": '" + value
                        + "' is not a web origin; give scheme, host and port only, such as https://console.example:8443");
            }
            origins.add(origin);
        }
    }

    /** The refusal of a request these rules do not let through, or null to let it go on. */
    FullHttpResponse refusal(HttpRequest request, Channel channel) {
        String hostHeader = request.headers().get(HttpHeaderNames.HOST);
        String host = hostHeader == null ? null : host(hostHeader);
        if (hostHeader != null && host == null) {
            return Replies.error(HttpResponseStatus.BAD_REQUEST, "MALFORMED_HTTP",
                    "the Host header '" + hostHeader + "' is not a host name or address");
        }
        if (host != null && !serves(host, channel)) {
            return Replies.error(HttpResponseStatus.MISDIRECTED_REQUEST, "MISDIRECTED_REQUEST",
                    "this agent does not serve the host '" + host + "' (a page that names another host may be "
                            + "a DNS-rebinding attack); start the agent with --allow-host " + host + " to serve that name");
        }
        boolean webSocket = HttpHeaderValues.WEBSOCKET.contentEqualsIgnoreCase(
                request.headers().get(HttpHeaderNames.UPGRADE));
        boolean changes = !SAFE_METHODS.contains(request.method());
        String foreign = webSocket || changes ? foreignOrigin(request, channel, webSocket) : null;
        if (foreign != null) {
            return Replies.error(HttpResponseStatus.FORBIDDEN, "FORBIDDEN_ORIGIN", foreign);
        }
        if (!changes || !Exchange.hasBody(request) || isJsonOrXml(request)) {
            return null;
        }
        String type = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        return Replies.error(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE",
                "a " + request.method() + " with a body must be sent as application/json, or as application/xml "
                        + "for SensorML and PCML documents; it was " + (type == null ? "sent without a Content-Type"
                        : "'" + type + "'"));
    }

    /** Why the page that sent this request may not, or null when no page sent it or its origin is let in. */
    private String foreignOrigin(HttpRequest request, Channel channel, boolean webSocket) {
        List<String> values = request.headers().getAll(HttpHeaderNames.ORIGIN);
        if (values.size() > 1) {
            return "a request with " + values.size() + " Origin headers is refused";
        }
        String value = values.isEmpty() ? null : values.get(0).trim();
        Origin origin = value == null ? null : Origin.parse(value);
        if (value == null || origin != null && (origins.contains(origin) || isOwn(origin, channel))) {
            return null; // not a browser, or a page let in
        }
        String what = webSocket ? "open a WebSocket to this agent" : "send a " + request.method() + " to this agent";
        if (value.equals("null")) {
            return "a page with an opaque origin (Origin: null: a sandboxed frame, a local file or a redirect) "
                    + "may not " + what;
        }
        return "a page from '" + value + "' may not " + what + ": it takes those from its own pages only; "
                + "start the agent with --allow-origin " + value + " to let that page in";
    }

    private boolean isOwn(Origin origin, Channel channel) {
        return origin.scheme().equals(scheme) && channel.localAddress() instanceof InetSocketAddress local
                && origin.port() == local.getPort() && serves(origin.host(), channel);
    }

    private boolean serves(String host, Channel channel) {
        int dot = host.indexOf('.'); // a wildcard stands for one label, as in a certificate
        return hosts.contains(host) || dot > 0 && hosts.contains("*" + host.substring(dot))
                || channel.localAddress() instanceof InetSocketAddress local && local.getAddress() != null
                && host.equals(NetUtil.toAddressString(local.getAddress()));
    }

    private static boolean isJsonOrXml(HttpRequest request) {
        String type = String.valueOf(HttpUtil.getMimeType(request)).trim();
        return HttpHeaderValues.APPLICATION_JSON.contentEqualsIgnoreCase(type)
                || HttpHeaderValues.APPLICATION_XML.contentEqualsIgnoreCase(type);
    }

    // ------------------------------------------------------------------ names

    /**
     * The host of a Host header or an authority ({@code name}, {@code name:port}, {@code [v6]:port},
     * or a bare IPv6 address as the server's own host option may be), lower-cased, without a
     * trailing dot; null when malformed.
     */
    static String host(String authority) {
        String a = authority.trim().toLowerCase(Locale.ROOT);
        Matcher m = HOST.matcher(a);
        return NetUtil.isValidIpV6Address(a) ? canonical(a) : m.matches() ? canonical(m.group(1)) : null;
    }

    /**
     * A matched host: an address in its canonical form, without a zone (a Host header seldom carries
     * it); a name as it is; null for a bracketed host that is no IPv6 address.
     */
    private static String canonical(String host) {
        byte[] ip = NetUtil.createByteArrayFromIpAddressString(host);
        return ip != null ? NetUtil.bytesToIpAddress(ip) : host.startsWith("[") ? null : host;
    }

    /** Serves a host name or address, or a wildcard name ({@code *.example.com}); false when it is neither. */
    private boolean serve(String name) {
        boolean wildcard = name.startsWith("*.");
        String host = host(wildcard ? name.substring(2) : name);
        if (host != null) {
            hosts.add(wildcard ? "*." + host : host);
        }
        return host != null;
    }

    /** Serves the host names and addresses of the server's certificate, which a {@link TlsConfig} keeps as {@code salgate}. */
    private void serveCertificateNames(TlsConfig tls) {
        for (KeyManager manager : tls.keyManagerFactory().getKeyManagers()) {
            X509Certificate[] chain = manager instanceof X509KeyManager keys ? keys.getCertificateChain("salgate") : null;
            if (chain != null && chain.length > 0) {
                Certificates.hostNames(chain[0]).forEach(this::serve);
            }
        }
    }

    /** The items of a comma-separated property, trimmed. */
    private static List<String> list(String value) {
        return value == null ? List.of()
                : Arrays.stream(value.split(",")).map(String::trim).filter(item -> !item.isEmpty()).toList();
    }

    /** A web origin: scheme, host and port. */
    private record Origin(String scheme, String host, int port) {

        /** The origin of an Origin header or an option value, or null when it is not one. */
        static Origin parse(String value) {
            Matcher m = ORIGIN.matcher(value.trim().toLowerCase(Locale.ROOT));
            String host = m.matches() ? canonical(m.group(2)) : null;
            return host == null ? null : new Origin(m.group(1), host, m.group(3) != null && !m.group(3).isEmpty()
                    ? Integer.parseInt(m.group(3)) : m.group(1).equals("https") ? 443 : 80);
        }
    }
}
