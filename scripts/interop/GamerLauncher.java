import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts one of ggp-base's sample players (RandomGamer, SampleMonteCarloGamer, ...) as an
 * HTTP player through ggp-base's own PlayerRunner.
 *
 * <p>This file is ours (part of ggp's interoperability check). PlayerRunner finds gamer
 * classes with the Reflections library, which scans the URLs of the class loaders it can
 * see; since Java 9 the application class loader is no longer a URLClassLoader, so the scan
 * finds nothing. This launcher loads PlayerRunner through a URLClassLoader over the class
 * path and makes it the context class loader, then calls its main unchanged:
 *
 * <pre>
 * java -cp GGPBASE_CLASSPATH GamerLauncher.java PORT GAMER_CLASS_SIMPLE_NAME
 * </pre>
 */
public final class GamerLauncher {
    private GamerLauncher() {
    }

    public static void main(String[] args) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                urls.add(new File(entry).toURI().toURL());
            }
        }
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), platform);
        Thread.currentThread().setContextClassLoader(loader);
        Class<?> runner = loader.loadClass("org.ggp.base.apps.player.PlayerRunner");
        Method main = runner.getMethod("main", String[].class);
        main.invoke(null, (Object) args);
    }
}
