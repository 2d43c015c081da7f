package org.salgate.sensorml;

import java.io.InputStream;
import java.io.Reader;
import java.net.URI;
import java.util.Map;
import org.w3c.dom.ls.LSInput;
import org.w3c.dom.ls.LSResourceResolver;

/**
 * Resolves every schema a schema imports or includes from the class path, so that compiling
 * one never touches the network. Schemas are addressed by their official URLs (such as
 * {@code http://schemas.opengis.net/gml/3.2.1/gml.xsd}); relative locations are resolved against
 * the official URL of the including schema first, then mapped to the jars ogc-schemas and
 * w3c-schemas (or this module's resources). A location with no mapping is refused rather than
 * fetched.
 */
final class ClasspathSchemaResolver implements LSResourceResolver {

    /** Official URL prefix to class-path prefix; no prefix is a prefix of another. */
    private static final Map<String, String> PREFIXES = Map.of(
            "http://schemas.opengis.net/", "ogc/",
            "https://schemas.opengis.net/", "ogc/",
            "http://www.w3.org/1999/xlink.xsd", "w3c/1999/xlink.xsd",
            "http://www.w3.org/2001/xml.xsd", "w3c/2001/xml.xsd",
            "urn:salgate:schema:", "org/salgate/sensorml/");

    private final ClassLoader loader;

    ClasspathSchemaResolver(ClassLoader loader) {
        this.loader = loader;
    }

    @Override
    public LSInput resolveResource(String type, String namespaceUri, String publicId, String systemId,
                                   String baseUri) {
        if (systemId == null) {
            // An import without a location: the namespace's components must come from elsewhere.
            return null;
        }
        String absolute = absolute(systemId, baseUri);
        return new Input(publicId, absolute, open(absolute));
    }

    /** Opens the class-path copy of the schema at its official URL. */
    InputStream open(String officialUrl) {
        String path = classpathPath(officialUrl);
        InputStream in = path == null ? null : loader.getResourceAsStream(path);
        if (in == null) {
            throw new IllegalStateException("schema " + officialUrl + " is not on the class path"
                    + (path == null ? "" : " (looked for " + path + ")")
                    + "; add the jar that holds it instead of fetching it from the network");
        }
        return in;
    }

    static String absolute(String systemId, String baseUri) {
        URI uri = URI.create(systemId);
        if (!uri.isAbsolute() && baseUri != null) {
            uri = URI.create(baseUri).resolve(uri);
        }
        return uri.normalize().toString();
    }

    static String classpathPath(String officialUrl) {
        for (Map.Entry<String, String> e : PREFIXES.entrySet()) {
            if (officialUrl.startsWith(e.getKey())) {
                return e.getValue() + officialUrl.substring(e.getKey().length());
            }
        }
        return null;
    }

    /** A byte-stream LSInput; the JDK has no public implementation outside DOM Load and Save. */
    private static final class Input implements LSInput {
        private String publicId;
        private String systemId;
        private InputStream byteStream;

        Input(String publicId, String systemId, InputStream byteStream) {
            this.publicId = publicId;
            this.systemId = systemId;
            this.byteStream = byteStream;
        }

        @Override public Reader getCharacterStream() { return null; }
        @Override public void setCharacterStream(Reader characterStream) { }
        @Override public InputStream getByteStream() { return byteStream; }
        @Override public void setByteStream(InputStream byteStream) { this.byteStream = byteStream; }
        @Override public String getStringData() { return null; }
        @Override public void setStringData(String stringData) { }
        @Override public String getSystemId() { return systemId; }
        @Override public void setSystemId(String systemId) { this.systemId = systemId; }
        @Override public String getPublicId() { return publicId; }
        @Override public void setPublicId(String publicId) { this.publicId = publicId; }
        @Override public String getBaseURI() { return null; }
        @Override public void setBaseURI(String baseURI) { }
        @Override public String getEncoding() { return null; }
        @Override public void setEncoding(String encoding) { }
        @Override public boolean getCertifiedText() { return false; }
        @Override public void setCertifiedText(boolean certifiedText) { }
    }
}
