package org.salgate.plugin.opcua;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Period;
import java.util.UUID;
import org.eclipse.milo.opcua.stack.core.util.CertificateUtil;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateBuilder;

/**
 * The agent's OPC UA application instance certificate: made once (RSA 2048, self-signed, valid ten
 * years, its application URI {@code urn:salgate:agent:UUID}) and kept in {@value #STORE} in the
 * protocol's {@code certificate-dir}, readable by the agent's user only, with a copy of the
 * certificate alone in {@value #CERTIFICATE} for the server's administrator to trust.
 *
 * @param keyPair the certificate's key pair
 * @param certificate the certificate
 * @param applicationUri the URI the certificate names, which the client presents as its own
 */
record ApplicationCertificate(KeyPair keyPair, X509Certificate certificate, String applicationUri) {

    static final String STORE = "salgate-opcua-client.p12";
    static final String CERTIFICATE = "salgate-opcua-client.der";
    private static final String ALIAS = "salgate-opcua-client";
    /** The store's file permissions protect the key; PKCS#12 wants a password all the same. */
    private static final char[] STORE_PASSWORD = "salgate".toCharArray();

    /**
     * The certificate kept in {@code dir}, made there first if there is none.
     *
     * @throws IOException when the directory or the store cannot be read or written
     */
    static synchronized ApplicationCertificate in(Path dir) throws IOException, GeneralSecurityException {
        Path store = dir.resolve(STORE);
        if (!Files.exists(store)) {
            make(dir, store);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, STORE_PASSWORD);
        }
        X509Certificate certificate = (X509Certificate) keys.getCertificate(ALIAS);
        PrivateKey key = (PrivateKey) keys.getKey(ALIAS, STORE_PASSWORD);
        if (certificate == null || key == null) {
            throw new IOException(store + " holds no entry " + ALIAS + "; move it away and the agent makes a new one");
        }
        String uri = CertificateUtil.getSanUri(certificate).orElseThrow(() -> new IOException(store
                + " holds a certificate without an application URI; move it away and the agent makes a new one"));
        return new ApplicationCertificate(new KeyPair(certificate.getPublicKey(), key), certificate, uri);
    }

    private static void make(Path dir, Path store) throws IOException, GeneralSecurityException {
        Files.createDirectories(dir);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        String uri = "urn:salgate:agent:" + UUID.randomUUID();
        String host = InetAddress.getLocalHost().getHostName();
        X509Certificate certificate;
        try {
            certificate = new SelfSignedCertificateBuilder(pair)
                    .setCommonName("salgate agent")
                    .setOrganization("salgate")
                    .setApplicationUri(uri)
                    .addDnsName(host)
                    .setValidityPeriod(Period.ofYears(10))
                    .build();
        } catch (Exception e) {
            throw new GeneralSecurityException("cannot make the agent's OPC UA certificate: " + e.getMessage(), e);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry(ALIAS, pair.getPrivate(), STORE_PASSWORD, new Certificate[] {certificate});
        Path temporary = Files.createTempFile(dir, ".store", ".tmp");
        try {
            Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            try (OutputStream out = Files.newOutputStream(temporary)) {
                keys.store(out, STORE_PASSWORD);
            }
            Files.write(dir.resolve(CERTIFICATE), certificate.getEncoded());
            // another protocol of the agent may have made one meanwhile: the first one stays
            Files.move(temporary, store, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            // kept the other
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
