/* eSpeak NG's build configuration for the WebAssembly build (build.sh): what autotools'
 * `configure --without-async --without-mbrola --without-sonic` writes, without pcaudiolib. */
#define HAVE_MKSTEMP 1
#define USE_ASYNC 0
#define USE_KLATT 1
#define USE_LIBPCAUDIO 0
#define USE_LIBSONIC 0
#define USE_MBROLA 0
#define USE_SPEECHPLAYER 1
#define PACKAGE_VERSION "1.52-dev"
