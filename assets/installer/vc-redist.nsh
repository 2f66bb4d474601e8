; Included by electron-builder's NSIS installer (electron-builder.yml, nsis.include).
; Natural voices run on onnxruntime, whose Windows binding and DLL import the Microsoft Visual
; C++ runtime (MSVCP140.dll, VCRUNTIME140.dll); Electron does not ship it. onnxruntime is built
; with Visual Studio 2022, whose binaries need runtime 14.40 or later (an older one fails or
; crashes). Where it is missing or older, the installer says so and offers Microsoft's download. The app itself works
; without it (eSpeak voices), and says the same when a natural voice cannot load.

!include "LogicLib.nsh"
!include "x64.nsh"

!define NS_VC_RUNTIMES "SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes"

!macro customInit
  SetRegView 64
  ${If} ${IsNativeARM64}
    StrCpy $3 "arm64"
    StrCpy $1 "https://aka.ms/vs/17/release/vc_redist.arm64.exe"
  ${Else}
    StrCpy $3 "x64"
    StrCpy $1 "https://aka.ms/vs/17/release/vc_redist.x64.exe"
  ${EndIf}
  ReadRegDWORD $0 HKLM "${NS_VC_RUNTIMES}\$3" "Installed"
  ReadRegDWORD $2 HKLM "${NS_VC_RUNTIMES}\$3" "Minor"
  ; Microsoft's (32-bit) redistributable installer may write its key in the 32-bit view
  ; (WOW6432Node): look there too.
  ${If} $0 != 1
    SetRegView 32
    ReadRegDWORD $0 HKLM "${NS_VC_RUNTIMES}\$3" "Installed"
    ReadRegDWORD $2 HKLM "${NS_VC_RUNTIMES}\$3" "Minor"
  ${EndIf}
  SetRegView default
  ${If} $0 != 1
  ${OrIf} $2 < 40
    MessageBox MB_YESNO|MB_ICONINFORMATION "Natural voices need the Microsoft Visual C++ Redistributable (version 14.40 or later), which this computer lacks or has in an older version.$\r$\n$\r$\nNarration Studio installs and works without it (eSpeak voices); install it to use natural voices.$\r$\n$\r$\nOpen Microsoft's download page now?$\r$\n$1" /SD IDNO IDNO ns_vc_redist_done
    ExecShell "open" "$1"
    ns_vc_redist_done:
  ${EndIf}
!macroend
